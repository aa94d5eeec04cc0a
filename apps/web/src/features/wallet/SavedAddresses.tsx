// The withdrawal address book on the Security page (composed there by app/): every saved address
// of both networks, from when each is usable, one to remove, and the add sheet of the withdrawal
// form (the same checks and step-up).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEPOSIT_NETWORKS, type DepositNetwork } from '@lq/contracts';
import { Button } from '../../components/Button';
import { useNow } from '../../lib/clock';
import { formatDateTime } from '../../lib/format';
import { showToast } from '../../lib/toast';
import { AddAddressSheet } from './AddressBook';
import { useRemoveAddress, useWithdrawAddresses } from './api';

export default function SavedAddresses() {
  const { t, i18n } = useTranslation('wallet');
  const book = useWithdrawAddresses();
  const [adding, setAdding] = useState<DepositNetwork>();
  const entries = book.data?.list ?? [];
  const now = Math.max(useNow(), book.dataUpdatedAt);
  const remove = useRemoveAddress();
  return (
    <section className="card stack" data-testid="security-addresses">
      {entries.length === 0 && !book.isPending ? (
        <p className="field-hint" style={{ margin: 0 }}>
          {t('withdrawForm.bookEmpty')}
        </p>
      ) : null}
      {entries.length > 0 ? (
        <ul className="list" style={{ margin: 0 }}>
          {entries.map((e) => {
            const usable = Date.parse(e.usableFrom) <= now;
            return (
              <li
                key={e.id}
                className="list-row"
                style={{ gap: 12 }}
                data-testid="security-address"
                data-usable={usable ? 'true' : 'false'}
              >
                <span style={{ minWidth: 0, display: 'flex', flexDirection: 'column' }}>
                  <strong>{e.label ? `${e.label} · ${e.network}` : e.network}</strong>
                  <span className="num" style={{ overflowWrap: 'anywhere', fontSize: 13 }}>
                    {e.address}
                  </span>
                  {!usable ? (
                    <small className="field-hint" style={{ margin: 0 }}>
                      {t('withdrawForm.usableFrom', { at: formatDateTime(e.usableFrom, i18n.language) })}
                    </small>
                  ) : null}
                </span>
                <button
                  type="button"
                  className="link-btn"
                  onClick={() => void remove(e)}
                  data-testid="security-address-remove"
                >
                  {t('withdrawForm.removeAddress')}
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
        {DEPOSIT_NETWORKS.map((n) => (
          <Button
            key={n}
            variant="secondary"
            onClick={() => setAdding(n)}
            data-testid={`security-address-add-${n}`}
          >
            {t('withdrawForm.addAddress')} · {n}
          </Button>
        ))}
      </div>
      {adding ? (
        <AddAddressSheet
          network={adding}
          onClose={() => setAdding(undefined)}
          onAdded={(entry) => {
            setAdding(undefined);
            showToast(
              Date.parse(entry.usableFrom) <= Date.now()
                ? t('withdrawForm.added')
                : t('withdrawForm.addedWait', { at: formatDateTime(entry.usableFrom, i18n.language) }),
              'success',
            );
          }}
        />
      ) : null}
    </section>
  );
}
