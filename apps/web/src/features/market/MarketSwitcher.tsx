import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataSourceItem } from '@lq/contracts';
import { IconChevron } from '../../components/icons';
import { Sheet } from '../../components/Sheet';
import { DEFAULT_CURRENT_DATA_SOURCE, useAppStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { chooseDataSource } from './dataSources';

/** Label of a source: the server's localized text, else our own name for its type. */
function useSourceLabel() {
  const { t } = useTranslation();
  return (s: DataSourceItem) => s.text || (s.type === 'binance' ? t('market.crypto') : s.type === 'mt5' ? t('market.forex') : s.type);
}

function MarketSheet({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const label = useSourceLabel();
  const list = useAppStore((s) => s.dataSourceList);
  const current = useAppStore((s) => s.currentDataSource);
  const items = list.length ? list : [current.type === DEFAULT_CURRENT_DATA_SOURCE.type ? current : DEFAULT_CURRENT_DATA_SOURCE];
  const choose = async (item: DataSourceItem) => {
    if (await chooseDataSource(item)) {
      showToast(t('market.changed', { name: label(item) }), 'success');
      onClose();
    }
  };
  return (
    <Sheet title={t('market.title')} onClose={onClose} testId="market-sheet">
      <div role="radiogroup" aria-label={t('market.title')} style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
        {items.map((item) => (
          <button
            key={item.type}
            type="button"
            role="radio"
            className="option"
            aria-checked={item.type === current.type}
            data-open={item.isOpen}
            onClick={() => void choose(item)}
            data-testid={`market-option-${item.type}`}
          >
            <img src={item.icon || `/icons/${item.type}.svg`} alt="" width={28} height={28} />
            <span>{label(item)}</span>
            {!item.isOpen ? <span className="tag">{t('market.soon')}</span> : null}
          </button>
        ))}
      </div>
    </Sheet>
  );
}

/** Current-market chip opening the market sheet (spec §2 market switcher dialog). */
export function MarketSwitcher({ variant = 'chip' }: { variant?: 'chip' | 'row' }) {
  const { t } = useTranslation();
  const label = useSourceLabel();
  const current = useAppStore((s) => s.currentDataSource);
  const [open, setOpen] = useState(false);
  const name = label(current);
  const sheet = open ? <MarketSheet onClose={() => setOpen(false)} /> : null;
  if (variant === 'row') {
    return (
      <li>
        <button type="button" className="list-row" onClick={() => setOpen(true)} data-testid="market-switcher" aria-haspopup="dialog">
          {t('account.market')}
          <span className="value" data-testid="current-market">{name}</span>
          <IconChevron className="chev" />
        </button>
        {sheet}
      </li>
    );
  }
  return (
    <>
      <button type="button" className="chip" onClick={() => setOpen(true)} aria-haspopup="dialog" aria-label={`${t('market.switch')}: ${name}`} data-testid="market-switcher">
        <img src={current.icon || `/icons/${current.type}.svg`} alt="" width={20} height={20} />
        <span data-testid="current-market">{name}</span>
      </button>
      {sheet}
    </>
  );
}
