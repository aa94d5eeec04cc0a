// One user in a panel: what they own and the grants in force, and the operator's four actions on
// them. Every action carries a reason (kept in the audit log); a wallet adjustment carries an
// idempotency key made when the form opens, so a double submit or a retry moves money once.
import { useQueryClient, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ACCOUNT_MARKETS,
  consoleAdjustBody,
  consoleFreezeBody,
  consoleGrantBody,
  consoleLevelBody,
  GRANT_KINDS,
  levelGrantNeedsSecond,
  USER_LEVELS,
  WALLETS,
  type ConsoleAdjustBody,
  type ConsoleAdjustResult,
  type ConsoleGrantBody,
  type ConsoleLevelBody,
  type ConsoleLevelResult,
  type ConsoleUserDetail,
} from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import { TextField } from '../../components/TextField';
import { ErrorView, Spinner } from '../../components/Views';
import { displayMoney } from '../../lib/money';
import { showToast } from '../../lib/toast';
import { consoleApi } from './api';
import { useConsoleForm } from './form';
import { ReasonField } from './ReasonField';
import { useDateTime } from './ui';

const ACTIONS = ['level', 'freeze', 'grant', 'adjust'] as const;
type Action = (typeof ACTIONS)[number];

export function UserPanel({ userId, onClose }: { userId: number; onClose: () => void }) {
  const { t } = useTranslation('console');
  const when = useDateTime();
  const [action, setAction] = useState<Action>('level');
  const detail = useQuery({ queryKey: ['console', 'user', userId], queryFn: () => consoleApi.get<ConsoleUserDetail>('users/detail', { query: { userId } }) });
  const queryClient = useQueryClient();
  const done = async (message: string) => {
    showToast(message, 'success');
    await queryClient.invalidateQueries({ queryKey: ['console'] });
  };
  const d = detail.data;
  return (
    <Sheet title={d ? d.user.mail : t('users.manage')} onClose={onClose} testId="user-panel">
      {detail.isPending ? (
        <Spinner label={t('loading')} />
      ) : detail.isError || !d ? (
        <ErrorView message={t('loadFailed')} onRetry={() => void detail.refetch()} />
      ) : (
        <div className="cs-panel">
          <dl className="cs-facts">
            <dt>{t('users.level')}</dt>
            <dd data-testid="panel-level">{t(`level.${d.user.level}`)}</dd>
            <dt>{t('users.balance')}</dt>
            <dd data-testid="panel-balance">{displayMoney(d.user.balance)}</dd>
            <dt>{t('users.rebate')}</dt>
            <dd>{displayMoney(d.user.rebate)}</dd>
            <dt>{t('users.state')}</dt>
            <dd data-testid="panel-state" data-frozen={d.user.frozenAt !== null}>
              {d.user.frozenAt ? t('users.frozenSince', { at: when(d.user.frozenAt), reason: d.user.frozenReason ?? '' }) : t('users.active')}
            </dd>
            <dt>{t('users.unlocked')}</dt>
            <dd>{d.unlocked ? t('yes') : t('no')}</dd>
            {d.owned.map((o) => (
              <div key={o.market} className="cs-fact-pair">
                <dt>{t(`market.${o.market}`)}</dt>
                <dd data-testid={`panel-owned-${o.market}`}>{t('users.owned', { seats: o.seats, slots: o.slots })}</dd>
              </div>
            ))}
          </dl>
          {d.grants.length ? (
            <ul className="cs-grants" data-testid="panel-grants">
              {d.grants.map((g) => (
                <li key={g.id} data-testid="panel-grant" data-kind={g.kind}>
                  {t('grant.line', { quantity: g.quantity, kind: t(`grant.kind.${g.kind}`), market: g.market ? t(`market.${g.market}`) : t('grant.bothMarkets'), until: g.expiresAt ? when(g.expiresAt) : t('grant.forGood') })}
                  {g.note ? <span className="cs-sub"> · {g.note}</span> : null}
                </li>
              ))}
            </ul>
          ) : null}
          {d.suspectFills.length ? (
            <section className="cs-suspect" data-testid="panel-suspect-fills">
              <h3>{t('users.suspectFills')}</h3>
              <ul className="cs-grants">
                {d.suspectFills.map((f) => (
                  <li key={f.id} data-testid="panel-suspect-fill" data-reason={f.reason}>
                    {t('users.suspectFill', { at: when(f.filledAt), robot: f.robotId, symbol: f.symbol, action: f.action, qty: f.qty, price: f.price })}
                    <span className="cs-sub"> · {t(`suspect.${f.reason}`)}</span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <div className="cs-tabs" role="tablist">
            {ACTIONS.map((a) => (
              <button key={a} type="button" role="tab" aria-selected={action === a} className="chip" onClick={() => setAction(a)} data-testid={`panel-tab-${a}`}>
                {t(`action.${a}`)}
              </button>
            ))}
          </div>
          {/* Each form starts again from the user as reloaded after an action: fields cleared, a new idempotency key. */}
          {action === 'level' ? <LevelForm key={detail.dataUpdatedAt} detail={d} onDone={done} /> : null}
          {action === 'freeze' ? <FreezeForm key={detail.dataUpdatedAt} detail={d} onDone={done} /> : null}
          {action === 'grant' ? <GrantForm key={detail.dataUpdatedAt} detail={d} onDone={done} /> : null}
          {action === 'adjust' ? <AdjustForm key={detail.dataUpdatedAt} detail={d} onDone={done} /> : null}
        </div>
      )}
    </Sheet>
  );
}

interface FormProps {
  detail: ConsoleUserDetail;
  onDone: (message: string) => Promise<void>;
}

function LevelForm({ detail, onDone }: FormProps) {
  const { t } = useTranslation('console');
  const form = useConsoleForm<ConsoleLevelBody>(consoleLevelBody, { userId: detail.user.id, level: detail.user.level, reason: '' }, async (v) => {
    const done = await consoleApi.post<ConsoleLevelResult>('users/level', v);
    await onDone(t(done.approvalId === null ? 'level.done' : 'level.asked', { level: t(`level.${v.level}`) }));
  });
  // Higher rebates and dividend shares under two keys: said before the tap.
  const second = levelGrantNeedsSecond(detail.user.level, form.watch('level'));
  return (
    <form className="form" onSubmit={form.onSubmit} noValidate data-testid="level-form">
      <label className="field">
        <span>{t('users.level')}</span>
        <select className="input" data-testid="level-select" {...form.register('level')}>
          {USER_LEVELS.map((l) => (
            <option key={l} value={l}>{t(`level.${l}`)}</option>
          ))}
        </select>
      </label>
      {second ? <p className="cs-hint" data-testid="level-needs-second">{t('level.needsSecond')}</p> : null}
      <ReasonField error={form.errorOf('reason')} {...form.register('reason')} />
      <Button type="submit" block busy={form.busy} data-testid="level-submit">{t(second ? 'level.ask' : 'level.submit')}</Button>
    </form>
  );
}

function FreezeForm({ detail, onDone }: FormProps) {
  const { t } = useTranslation('console');
  const frozen = detail.user.frozenAt !== null;
  const form = useConsoleForm<{ userId: number; frozen: boolean; reason: string }>(consoleFreezeBody, { userId: detail.user.id, frozen: !frozen, reason: '' }, async (v) => {
    await consoleApi.post('users/freeze', { ...v, frozen: !frozen });
    await onDone(t(frozen ? 'freeze.doneUnfrozen' : 'freeze.doneFrozen'));
  });
  return (
    <form className="form" onSubmit={form.onSubmit} noValidate data-testid="freeze-form">
      <p className="cs-hint">{t(frozen ? 'freeze.unfreezeHint' : 'freeze.freezeHint')}</p>
      <ReasonField error={form.errorOf('reason')} {...form.register('reason')} />
      <Button type="submit" variant={frozen ? 'primary' : 'danger'} block busy={form.busy} data-testid="freeze-submit">
        {t(frozen ? 'freeze.unfreeze' : 'freeze.freeze')}
      </Button>
    </form>
  );
}

type GrantValues = Omit<ConsoleGrantBody, 'market' | 'days'> & { market?: string; days?: number };

function GrantForm({ detail, onDone }: FormProps) {
  const { t } = useTranslation('console');
  const form = useConsoleForm<GrantValues>(consoleGrantBody, { userId: detail.user.id, kind: 'seat', market: undefined, quantity: 1, days: 30, reason: '' }, async (v) => {
    await consoleApi.post('users/grant', v);
    await onDone(t('grant.done'));
  });
  const unlock = form.watch('kind') === 'unlock';
  const optional = (v: string) => (v === '' ? undefined : v);
  const optionalNumber = (v: string) => (v === '' ? undefined : Number(v));
  return (
    <form className="form" onSubmit={form.onSubmit} noValidate data-testid="grant-form">
      <label className="field">
        <span>{t('grant.what')}</span>
        <select
          className="input"
          data-testid="grant-kind"
          {...form.register('kind', {
            onChange: (e: { target: { value: string } }) => {
              if (e.target.value === 'unlock') {
                form.setValue('market', undefined);
                form.setValue('quantity', 1);
              }
            },
          })}
        >
          {GRANT_KINDS.map((k) => (
            <option key={k} value={k}>{t(`grant.kind.${k}`)}</option>
          ))}
        </select>
      </label>
      {unlock ? (
        <p className="cs-hint">{t('grant.unlockHint')}</p>
      ) : (
        <>
          <label className="field">
            <span>{t('grant.market')}</span>
            <select className="input" data-testid="grant-market" {...form.register('market', { setValueAs: optional })}>
              <option value="">{t('grant.bothMarkets')}</option>
              {ACCOUNT_MARKETS.map((m) => (
                <option key={m} value={m}>{t(`market.${m}`)}</option>
              ))}
            </select>
          </label>
          <TextField label={t('grant.quantity')} type="number" inputMode="numeric" min={1} max={100} data-testid="grant-quantity" error={form.errorOf('quantity')} {...form.register('quantity', { valueAsNumber: true })} />
        </>
      )}
      <TextField label={t('grant.days')} type="number" inputMode="numeric" min={1} hint={t('grant.daysHint')} data-testid="grant-days" error={form.errorOf('days')} {...form.register('days', { setValueAs: optionalNumber })} />
      <ReasonField error={form.errorOf('reason')} {...form.register('reason')} />
      <Button type="submit" block busy={form.busy} data-testid="grant-submit">{t('grant.submit')}</Button>
    </form>
  );
}

function AdjustForm({ detail, onDone }: FormProps) {
  const { t } = useTranslation('console');
  // One key per opened form: a retry after a lost answer is the same adjustment, answered again.
  const [key] = useState(() => `adj-${crypto.randomUUID()}`);
  const form = useConsoleForm<ConsoleAdjustBody>(consoleAdjustBody, { userId: detail.user.id, wallet: 'balance', direction: 'credit', amount: '', reason: '', idempotencyKey: key }, async (v) => {
    const r = await consoleApi.post<ConsoleAdjustResult>('users/adjust', v);
    // Above the two-person amount nothing moved yet: it waits in Approvals for another operator.
    await onDone(r.approvalId ? t(r.waitsFor === 'soloSums' ? 'adjust.waitingSolo' : 'adjust.waiting', { id: r.approvalId }) : t('adjust.done', { available: displayMoney(r.available) }));
  });
  return (
    <form className="form" onSubmit={form.onSubmit} noValidate data-testid="adjust-form">
      <div className="cs-row">
        <label className="field cs-grow">
          <span>{t('adjust.wallet')}</span>
          <select className="input" data-testid="adjust-wallet" {...form.register('wallet')}>
            {WALLETS.map((w) => (
              <option key={w} value={w}>{t(`adjust.walletName.${w}`)}</option>
            ))}
          </select>
        </label>
        <label className="field cs-grow">
          <span>{t('adjust.direction')}</span>
          <select className="input" data-testid="adjust-direction" {...form.register('direction')}>
            <option value="credit">{t('adjust.credit')}</option>
            <option value="debit">{t('adjust.debit')}</option>
          </select>
        </label>
      </div>
      <TextField label={t('adjust.amount')} inputMode="decimal" maxLength={24} data-testid="adjust-amount" error={form.errorOf('amount')} {...form.register('amount')} />
      <ReasonField error={form.errorOf('reason')} {...form.register('reason')} />
      <p className="cs-hint">{t('adjust.hint')}</p>
      <Button type="submit" block busy={form.busy} data-testid="adjust-submit">{t('adjust.submit')}</Button>
    </form>
  );
}
