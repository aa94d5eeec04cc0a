// The withdrawal address book on the withdrawal form (docs/api.md "Withdrawal address book"): the
// addresses of the chosen network to pick from, each saying from when it can be used, one to remove,
// and a sheet to add one (checked by the server as a withdrawal's address is; a step-up: the
// WITHDRAW_ADDRESS e-mail code, or the two-step code when two-step is on).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { WITHDRAW_ADDRESS_LABEL_MAX, type DepositNetwork, type WithdrawAddressItem } from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import { isStepUpField, stepUpBody, StepUpField, useTwoFactorOn, type StepUpProof } from '../../components/StepUpField';
import { TextField } from '../../components/TextField';
import { ApiError, errorField } from '../../lib/api';
import { showToast } from '../../lib/toast';
import { addWithdrawAddress, useRemoveAddress, useWithdrawAddresses } from './api';
import { formatDateTime } from '../../lib/format';


interface Props {
  network: DepositNetwork;
  selected: string;
  onSelect: (address: string) => void;
  now: number;
  error?: string;
}

export function AddressBook({ network, selected, onSelect, now, error }: Props) {
  const { t, i18n } = useTranslation('wallet');
  const book = useWithdrawAddresses();
  const [adding, setAdding] = useState(false);
  const entries = (book.data?.list ?? []).filter((e) => e.network === network);
  // The book as of its last read at the earliest: an address usable at once (no wait) is usable when shown.
  const asOf = Math.max(now, book.dataUpdatedAt);

  const removeAddress = useRemoveAddress();
  const remove = async (entry: WithdrawAddressItem) => {
    if ((await removeAddress(entry)) && entry.address === selected) onSelect('');
  };

  return (
    <div className="field" data-testid="wd-book">
      <span>{t('withdrawForm.address', { network })}</span>
      {entries.length === 0 && !book.isPending ? <p className="field-hint" data-testid="wd-book-empty">{t('withdrawForm.bookEmpty')}</p> : null}
      <div className="wl-book" role="radiogroup" aria-label={t('withdrawForm.address', { network })} aria-describedby="wd-address-error">
        {entries.map((e) => {
          const usable = Date.parse(e.usableFrom) <= asOf;
          return (
            <div key={e.id} className="wl-book-row">
              <button
                type="button"
                role="radio"
                aria-checked={selected === e.address}
                disabled={!usable}
                className={`wl-book-entry${selected === e.address ? ' is-selected' : ''}`}
                onClick={() => onSelect(e.address)}
                data-field={selected === e.address || !selected ? 'address' : undefined}
                data-testid="wd-book-entry"
                data-address={e.address}
                data-usable={usable ? 'true' : 'false'}
              >
                {e.label ? <strong>{e.label}</strong> : null}
                <span className="num wl-book-address">{e.address}</span>
                {!usable ? <small data-testid="wd-book-wait">{t('withdrawForm.usableFrom', { at: formatDateTime(e.usableFrom, i18n.language) })}</small> : null}
              </button>
              <button type="button" className="link-btn" onClick={() => void remove(e)} data-testid="wd-book-remove">{t('withdrawForm.removeAddress')}</button>
            </div>
          );
        })}
      </div>
      <Button variant="secondary" onClick={() => setAdding(true)} data-testid="wd-add-address">{t('withdrawForm.addAddress')}</Button>
      {error ? <p className="field-error" role="alert" id="wd-address-error" data-testid="wd-address-error">{error}</p> : null}
      {adding ? (
        <AddAddressSheet
          network={network}
          onClose={() => setAdding(false)}
          onAdded={(entry) => {
            setAdding(false);
            if (Date.parse(entry.usableFrom) <= Date.now()) onSelect(entry.address);
            showToast(Date.parse(entry.usableFrom) <= Date.now() ? t('withdrawForm.added') : t('withdrawForm.addedWait', { at: formatDateTime(entry.usableFrom, i18n.language) }), 'success');
          }}
        />
      ) : null}
    </div>
  );
}

export function AddAddressSheet({ network, onClose, onAdded }: { network: DepositNetwork; onClose: () => void; onAdded: (e: WithdrawAddressItem) => void }) {
  const { t } = useTranslation('wallet');
  const queryClient = useQueryClient();
  const twoFactorOn = useTwoFactorOn();
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const [proof, setProof] = useState('');
  const [errors, setErrors] = useState<{ address?: string; proof?: string; label?: string }>({});
  const [busy, setBusy] = useState(false);

  /** `signed`: the step-up proved by a passkey instead of the typed code. */
  const submit = async (signed?: StepUpProof) => {
    const found: typeof errors = {};
    if (!address.trim()) found.address = t('withdrawForm.addressRequired');
    if (!signed && !proof.trim()) found.proof = t('withdrawForm.proofRequired');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const entry = await addWithdrawAddress({ network, address: address.trim(), label: label.trim(), ...(signed ?? stepUpBody(twoFactorOn, proof)) });
      await queryClient.invalidateQueries({ queryKey: ['wallet', 'withdraw-addresses'] });
      onAdded(entry);
    } catch (e) {
      const field = errorField(e);
      if (e instanceof ApiError && field === 'address') setErrors({ address: e.message });
      else if (e instanceof ApiError && isStepUpField(field)) setErrors({ proof: e.message });
      else showToast(e instanceof ApiError ? e.message : t('withdrawForm.addFailed'), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Sheet title={t('withdrawForm.addAddress')} onClose={onClose} testId="wd-add-sheet">
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <p className="field-hint">{t('withdrawForm.addHint')}</p>
        <TextField label={t('withdrawForm.address', { network })} className="input num" value={address} onChange={(e) => setAddress(e.target.value)} autoComplete="off" spellCheck={false} maxLength={100} name="newAddress" data-testid="wd-new-address" error={errors.address} />
        <TextField label={t('withdrawForm.label')} value={label} onChange={(e) => setLabel(e.target.value)} autoComplete="off" maxLength={WITHDRAW_ADDRESS_LABEL_MAX} name="newLabel" data-testid="wd-new-label" />
        <StepUpField codeType="WITHDRAW_ADDRESS" testId="wd-new-proof" name="newProof" value={proof} onChange={(e) => setProof(e.target.value)} error={errors.proof} onPasskey={submit} />
        <Button type="submit" block busy={busy} data-testid="wd-new-submit">{t('withdrawForm.addSubmit')}</Button>
      </form>
    </Sheet>
  );
}
