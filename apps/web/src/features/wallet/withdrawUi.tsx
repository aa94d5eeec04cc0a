// Bits shared by the withdrawal screens.
import { useTranslation } from 'react-i18next';
import type { WithdrawState } from '@lq/contracts';
import { localeTag } from '../../lib/format';
import { useAppStore } from '../../lib/store';

export function WithdrawStateBadge({ state }: { state: WithdrawState }) {
  const { t } = useTranslation('wallet');
  const tone = state === 'completed' ? 'muted' : 'warn';
  return <span className={`badge ${tone}`} data-testid="wd-state">{t(`withdrawState.${state}`)}</span>;
}

export function useDateTime() {
  const locale = useAppStore((s) => s.locale);
  const f = new Intl.DateTimeFormat(localeTag(locale), { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hour12: false });
  return (ms: number) => f.format(ms);
}
