// Business settings (GET console/api/settings/business): the benefits' prices, the VIP tiers'
// thresholds, rebate and dividend rates, and the backtest maintenance switch — each form saved on
// its own with the reason the audit log keeps. Rates are typed in percent and sent in basis points.
// Prices and rates are money settings: saved, they wait for another operator's approval (the
// change waiting is shown above its form); thresholds and maintenance apply at once.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  BENEFIT_ITEMS,
  consoleMaintenanceBody,
  consolePricesBody,
  REBATE_LEVELS,
  VIP_MEASURES,
  VIP_TIERS,
  type ConsoleBusinessSettings,
  type ConsoleMaintenanceBody,
  type ConsolePricesBody,
  type VipThresholds,
} from '@lq/contracts';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { ErrorView, Spinner } from '../../components/Views';
import { showToast } from '../../lib/toast';
import { consoleApi } from './api';
import { useConsoleForm } from './form';
import { ReasonField } from './ReasonField';
import { PendingChange } from './SettingsChange';

/** Stored amounts without trailing zeros: what an operator would type. */
const typed = (amount: string) => amount.replace(/\.?0+$/, '');
const percentOf = (bp: number) => String(bp / 100);
const percent = z
  .string()
  .trim()
  .regex(/^\d{1,3}(\.\d{1,2})?$/, { error: 'validation.invalidFormat' })
  .refine((v) => Number(v) <= 100, { error: 'validation.invalidFormat' });
const basisPoints = (v: string) => Math.round(Number(v) * 100);
const reason = z.string().trim().min(1, { error: 'validation.required' }).max(500);

export function SettingsPage() {
  const { t } = useTranslation('console');
  const q = useQuery({ queryKey: ['console', 'settings', 'business'], queryFn: () => consoleApi.get<ConsoleBusinessSettings>('settings/business') });
  if (q.isPending) return <Spinner label={t('loading')} />;
  if (q.isError) return <ErrorView message={t('loadFailed')} onRetry={() => void q.refetch()} />;
  // Each form starts again from the settings as reloaded after a save.
  return (
    <div className="cs-cards" key={q.dataUpdatedAt}>
      <MaintenanceCard settings={q.data} />
      <PricesCard settings={q.data} />
      <RatesCard settings={q.data} />
      <VipCard settings={q.data} />
    </div>
  );
}

interface CardProps {
  settings: ConsoleBusinessSettings;
}

/** After a save: `asked` when the change waits for another operator. */
function useSaved(asked = false) {
  const { t } = useTranslation('console');
  const queryClient = useQueryClient();
  return async () => {
    showToast(t(asked ? 'pending.asked' : 'business.saved'), 'success');
    await queryClient.invalidateQueries({ queryKey: ['console'] });
  };
}

function MaintenanceCard({ settings }: CardProps) {
  const { t } = useTranslation('console');
  const saved = useSaved();
  const on = settings.maintenance;
  const form = useConsoleForm<ConsoleMaintenanceBody>(consoleMaintenanceBody, { on: !on, reason: '' }, async (v) => {
    await consoleApi.post('settings/maintenance', { ...v, on: !on });
    await saved();
  });
  return (
    <form className="form cs-card" onSubmit={form.onSubmit} noValidate data-testid="maintenance-form">
      <h2 className="cs-card-title">{t('business.maintenance')}</h2>
      <p className="cs-hint" data-testid="maintenance-state" data-on={on}>{t(on ? 'business.maintenanceOn' : 'business.maintenanceOff')}</p>
      <ReasonField error={form.errorOf('reason')} {...form.register('reason')} />
      <Button type="submit" variant={on ? 'primary' : 'danger'} block busy={form.busy} data-testid="maintenance-submit">
        {t(on ? 'business.maintenanceEnd' : 'business.maintenanceStart')}
      </Button>
    </form>
  );
}

function PricesCard({ settings }: CardProps) {
  const { t } = useTranslation('console');
  const saved = useSaved(true);
  const form = useConsoleForm<ConsolePricesBody>(
    consolePricesBody,
    { prices: { unlock: typed(settings.prices.unlock), seat: typed(settings.prices.seat), slot: typed(settings.prices.slot) }, reason: '' },
    async (v) => {
      await consoleApi.post('settings/prices', v);
      await saved();
    },
  );
  return (
    <form className="form cs-card" onSubmit={form.onSubmit} noValidate data-testid="prices-form">
      <h2 className="cs-card-title">{t('business.prices')}</h2>
      <p className="cs-hint">{t('business.pricesHint')}</p>
      <PendingChange pending={settings.pending.prices} />
      {BENEFIT_ITEMS.map((item) => (
        <TextField key={item} label={t(`business.price.${item}`)} inputMode="decimal" maxLength={24} data-testid={`price-${item}`} error={form.errorOf(`prices.${item}`)} {...form.register(`prices.${item}`)} />
      ))}
      <ReasonField error={form.errorOf('reason')} {...form.register('reason')} />
      <Button type="submit" block busy={form.busy} data-testid="prices-submit">{t('business.ask')}</Button>
    </form>
  );
}

const ratesForm = z.strictObject({
  rates: z.strictObject(Object.fromEntries([...REBATE_LEVELS, 'sameLevelShare'].map((k) => [k, percent])) as Record<(typeof REBATE_LEVELS)[number] | 'sameLevelShare', typeof percent>),
  dividendRate: percent,
  reason,
});
type RatesValues = z.infer<typeof ratesForm>;

function RatesCard({ settings }: CardProps) {
  const { t } = useTranslation('console');
  const saved = useSaved(true);
  const rates = Object.fromEntries(Object.entries(settings.rebates).map(([k, bp]) => [k, percentOf(bp)])) as RatesValues['rates'];
  const form = useConsoleForm<RatesValues>(ratesForm, { rates, dividendRate: percentOf(settings.dividendRate), reason: '' }, async (v) => {
    await consoleApi.post('settings/rebates', {
      rates: Object.fromEntries(Object.entries(v.rates).map(([k, p]) => [k, basisPoints(p)])),
      dividendRate: basisPoints(v.dividendRate),
      reason: v.reason,
    });
    await saved();
  });
  return (
    <form className="form cs-card" onSubmit={form.onSubmit} noValidate data-testid="rates-form">
      <h2 className="cs-card-title">{t('business.rates')}</h2>
      <p className="cs-hint">{t('business.ratesHint')}</p>
      <PendingChange pending={settings.pending.rebates} />
      <div className="cs-grid2">
        {[...REBATE_LEVELS, 'sameLevelShare' as const].map((k) => (
          <TextField key={k} label={k === 'sameLevelShare' ? t('business.sameLevelShare') : t('business.rateOf', { level: t(`level.${k}`) })} inputMode="decimal" maxLength={6} data-testid={`rate-${k}`} error={form.errorOf(`rates.${k}`)} {...form.register(`rates.${k}`)} />
        ))}
      </div>
      <TextField label={t('business.dividendRate')} hint={t('business.dividendHint')} inputMode="decimal" maxLength={6} data-testid="rate-dividend" error={form.errorOf('dividendRate')} {...form.register('dividendRate')} />
      <ReasonField error={form.errorOf('reason')} {...form.register('reason')} />
      <Button type="submit" block busy={form.busy} data-testid="rates-submit">{t('business.ask')}</Button>
    </form>
  );
}

const minimum = z.string().trim().regex(/^(\d{1,15}(\.\d{1,2})?)?$/, { error: 'validation.invalidFormat' });
const tierForm = z.strictObject({ match: z.enum(['any', 'all']), ...Object.fromEntries(VIP_MEASURES.map((m) => [m, minimum])) } as { match: z.ZodEnum<{ any: 'any'; all: 'all' }> } & Record<(typeof VIP_MEASURES)[number], typeof minimum>);
const vipForm = z.strictObject({ ...Object.fromEntries(VIP_TIERS.map((tier) => [tier, tierForm])), reason } as Record<(typeof VIP_TIERS)[number], typeof tierForm> & { reason: typeof reason });
type VipValues = z.infer<typeof vipForm>;

function VipCard({ settings }: CardProps) {
  const { t } = useTranslation('console');
  const saved = useSaved();
  const values = Object.fromEntries(
    VIP_TIERS.map((tier) => [tier, { match: settings.vip[tier].match, ...Object.fromEntries(VIP_MEASURES.map((m) => [m, settings.vip[tier].conditions.find((c) => c.measure === m)?.min ?? ''])) }]),
  ) as Omit<VipValues, 'reason'>;
  const form = useConsoleForm<VipValues>(vipForm, { ...values, reason: '' }, async (v) => {
    const thresholds = Object.fromEntries(
      VIP_TIERS.map((tier) => [tier, { match: v[tier].match, conditions: VIP_MEASURES.filter((m) => v[tier][m].trim() !== '').map((m) => ({ measure: m, min: v[tier][m].trim() })) }]),
    ) as VipThresholds;
    await consoleApi.post('settings/vip', { thresholds, reason: v.reason });
    await saved();
  });
  return (
    <form className="form cs-card cs-wide" onSubmit={form.onSubmit} noValidate data-testid="vip-form">
      <h2 className="cs-card-title">{t('business.vip')}</h2>
      <p className="cs-hint">{t('business.vipHint')}</p>
      {VIP_TIERS.map((tier) => (
        <fieldset key={tier} className="cs-fieldset" data-testid={`vip-${tier}`}>
          <legend>{tier}</legend>
          <label className="field">
            <span>{t('business.match')}</span>
            <select className="input" data-testid={`vip-${tier}-match`} {...form.register(`${tier}.match`)}>
              <option value="any">{t('business.matchAny')}</option>
              <option value="all">{t('business.matchAll')}</option>
            </select>
          </label>
          <div className="cs-grid2">
            {VIP_MEASURES.map((m) => (
              <TextField key={m} label={t(`business.measure.${m}`)} inputMode="decimal" maxLength={18} data-testid={`vip-${tier}-${m}`} error={form.errorOf(`${tier}.${m}`)} {...form.register(`${tier}.${m}`)} />
            ))}
          </div>
        </fieldset>
      ))}
      <ReasonField error={form.errorOf('reason')} {...form.register('reason')} />
      <Button type="submit" block busy={form.busy} data-testid="vip-submit">{t('business.save')}</Button>
    </form>
  );
}
