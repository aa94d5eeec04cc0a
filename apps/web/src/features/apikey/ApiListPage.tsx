// pages/apikey/apiList?market=forex|crypto (default: the current market): the caller's trading
// accounts with masked key, frozen state, leverage, key-check warnings, robots running and the MT5
// bridge status; edit (name, remark, leverage, new secrets), check the key again, new bridge
// token (MT5), unbind (refused by the server while robots run on it). New secrets and a new bridge
// token are step-up actions, as binding is: a two-step code, or an API_KEY code by e-mail.
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from '../../lib/router';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ACCOUNT_LEVERAGE_MAX, accountName, accountRemark, SEAT_EXPIRED, type AccountItem, type AccountMarket } from '@lq/contracts';
import { Button } from '../../components/Button';
import { Sheet } from '../../components/Sheet';
import { TextField } from '../../components/TextField';
import { isStepUpField, stepUpBody, StepUpField, useTwoFactorOn, type StepUpProof } from '../../components/StepUpField';
import { StepUpSheet } from '../../components/StepUpSheet';
import { ErrorView, Spinner } from '../../components/Views';
import { useAppStore } from '../../lib/store';
import type { ApiError} from '../../lib/api';
import { errorField } from '../../lib/api';
import { showToast } from '../../lib/toast';
import { BIND_MARKET_PATH, editAccount, invalidateAccounts, isMarket, listPath, MARKETS, marketOfDataSource, recheckAccount, releaseAccount, rotateToken, unbindAccount, useAccounts } from './api';
import { BridgeTag, TokenPanel, Warnings } from './ui';
import './apikey.css';

type Dialog = { kind: 'edit' | 'unbind' | 'rotate'; account: AccountItem } | { kind: 'token'; token: string } | null;

export default function ApiListPage() {
  const { t } = useTranslation('apikey');
  const { t: tc } = useTranslation();
  const [search] = useSearchParams();
  const currentType = useAppStore((s) => s.currentDataSource.type);
  const q = search.get('market');
  const market: AccountMarket = isMarket(q) ? q : marketOfDataSource(currentType);
  const accounts = useAccounts(market);
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const run = async (id: number, fn: () => Promise<unknown>) => {
    setBusyId(id);
    try {
      await fn();
      await invalidateAccounts(queryClient);
    } catch {
      // the server's message is shown as a toast
    } finally {
      setBusyId(null);
    }
  };

  return (
    <div className="bt-page" data-testid="api-list" data-market={market}>
      <div className="rb-head">
        <div className="bt-tabs" role="tablist" aria-label={t('bindMarket.market')}>
          {MARKETS.map((m) => (
            <Link key={m} role="tab" aria-selected={m === market} className="bt-tab rb-tab-link" to={listPath(m)} replace data-testid={`api-list-tab-${m}`}>
              {t(`market.${m}`)}
            </Link>
          ))}
        </div>
        <Link className="btn btn-primary" to={`${BIND_MARKET_PATH}?market=${market}`} data-testid="api-list-add">
          + {t('list.add')}
        </Link>
      </div>
      {accounts.isPending ? (
        <Spinner label={tc('common.loading')} />
      ) : accounts.isError ? (
        <ErrorView message={tc('common.networkError')} onRetry={() => void accounts.refetch()} />
      ) : accounts.data.list.length === 0 ? (
        <div className="bt-empty" data-testid="api-list-empty">
          <p>{t('list.empty')}</p>
          <Link className="btn btn-primary" to={`${BIND_MARKET_PATH}?market=${market}`}>{t('overview.bind')}</Link>
        </div>
      ) : (
        <div className="ak-list">
          {accounts.data.list.map((a) => (
            <AccountCard
              key={a.id}
              account={a}
              busy={busyId === a.id}
              onEdit={() => setDialog({ kind: 'edit', account: a })}
              onUnbind={() => setDialog({ kind: 'unbind', account: a })}
              onCheck={() =>
                void run(a.id, async () => {
                  await recheckAccount(a.id);
                  showToast(t('list.checked'), 'success');
                })
              }
              onRelease={() =>
                void run(a.id, async () => {
                  await releaseAccount(a.id);
                  showToast(t('list.released'), 'success');
                })
              }
              onRotate={() => setDialog({ kind: 'rotate', account: a })}
            />
          ))}
        </div>
      )}
      {dialog?.kind === 'edit' ? <EditSheet account={dialog.account} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'unbind' ? (
        <Sheet title={t('list.unbind')} onClose={() => setDialog(null)} testId="unbind-sheet">
          <div className="stack">
            <p>{t('list.unbindConfirm', { name: dialog.account.accountName })}</p>
            <Button
              variant="danger"
              block
              busy={busyId === dialog.account.id}
              data-testid="unbind-confirm"
              onClick={() => {
                const id = dialog.account.id;
                void run(id, async () => {
                  await unbindAccount(id);
                  showToast(t('list.unbound'), 'success');
                }).finally(() => setDialog(null));
              }}
            >
              {t('list.unbind')}
            </Button>
          </div>
        </Sheet>
      ) : null}
      {dialog?.kind === 'rotate' ? (
        <RotateSheet
          account={dialog.account}
          onClose={() => setDialog(null)}
          onRotated={(token) => {
            void invalidateAccounts(queryClient);
            setDialog({ kind: 'token', token });
          }}
        />
      ) : null}
      {dialog?.kind === 'token' ? (
        <Sheet title={t('token.title')} onClose={() => setDialog(null)} testId="token-sheet">
          <TokenPanel token={dialog.token} />
        </Sheet>
      ) : null}
    </div>
  );
}

function AccountCard(props: { account: AccountItem; busy: boolean; onEdit: () => void; onUnbind: () => void; onCheck: () => void; onRotate: () => void; onRelease: () => void }) {
  const { t } = useTranslation('apikey');
  const a = props.account;
  return (
    <article className="card ak-card" data-testid="account-card" data-id={a.id} data-exchange={a.exchange} data-frozen={a.frozen}>
      <div className="ak-card-head">
        <div className="ak-card-title">
          <strong data-testid="account-name">{a.accountName}</strong>
          <small>{t(`exchange.${a.exchange}`)}{a.remark ? ` · ${a.remark}` : ''}</small>
        </div>
        <div className="ak-actions">
          {a.frozen ? <span className="ak-tag ak-tag-frozen" data-testid="account-frozen" title={a.frozenReason === SEAT_EXPIRED ? t('list.seatExpired') : (a.frozenReason ?? undefined)}>{t('list.frozen')}</span> : null}
          {a.bridge ? <BridgeTag bridge={a.bridge} /> : null}
        </div>
      </div>
      <dl className="ak-figs">
        {a.apiKeyMasked ? (
          <div>
            <dt>{t('list.apiKey')}</dt>
            <dd className="num" data-testid="account-key">{a.apiKeyMasked}</dd>
          </div>
        ) : null}
        {a.bridge ? (
          <div>
            <dt>{t('list.login')}</dt>
            <dd>{a.bridge.login ? `${a.bridge.login}${a.bridge.server ? ` @ ${a.bridge.server}` : ''}` : '--'}</dd>
          </div>
        ) : null}
        <div>
          <dt>{t('list.leverage')}</dt>
          <dd className="num" data-testid="account-leverage">{a.leverage}×</dd>
        </div>
        <div>
          <dt>{t('list.robots')}</dt>
          <dd className="num" data-testid="account-robots">{a.robotsRunning}</dd>
        </div>
        {a.bridge && a.bridge.equity !== null ? (
          <div>
            <dt>{t('list.equity')}</dt>
            <dd className="num">{a.bridge.equity}</dd>
          </div>
        ) : null}
      </dl>
      {a.frozen && a.frozenReason === SEAT_EXPIRED ? (
        // Frozen by seat expiry: buy a seat of this market, then release it here.
        <div className="bt-notice" role="status" data-testid="account-seat-expired">
          <p>{t('list.seatExpired')}</p>
          <div className="ak-actions">
            <Link className="btn btn-secondary" to={`/pages/equity/monthEquityPay?kind=seat&market=${a.market}`} data-testid="account-buy-seat">{t('list.buySeat')}</Link>
            <Button busy={props.busy} onClick={props.onRelease} data-testid="account-release">{t('list.release')}</Button>
          </div>
        </div>
      ) : a.frozen && a.frozenReason ? (
        <p className="ak-secure">{a.frozenReason}</p>
      ) : null}
      <Warnings warnings={a.warnings} />
      <div className="ak-actions">
        <Button variant="secondary" onClick={props.onEdit} data-testid="account-edit">{t('list.edit')}</Button>
        {a.exchange === 'mt5' ? (
          <Button variant="secondary" busy={props.busy} onClick={props.onRotate} data-testid="account-rotate">{t('list.rotate')}</Button>
        ) : (
          <Button variant="secondary" busy={props.busy} onClick={props.onCheck} data-testid="account-check">{t('list.check')}</Button>
        )}
        <Button variant="danger" onClick={props.onUnbind} disabled={a.robotsRunning > 0} title={a.robotsRunning > 0 ? t('list.inUse') : undefined} data-testid="account-unbind">{t('list.unbind')}</Button>
      </div>
      {a.robotsRunning > 0 ? <p className="ak-secure">{t('list.inUse')}</p> : null}
    </article>
  );
}

function EditSheet({ account, onClose }: { account: AccountItem; onClose: () => void }) {
  const { t } = useTranslation('apikey');
  const queryClient = useQueryClient();
  const max = ACCOUNT_LEVERAGE_MAX[account.market];
  const schema = z.object({
    accountName,
    remark: accountRemark,
    leverage: z.number().int().min(1).max(max),
    apiKey: z.string().trim().max(128),
    secretKey: z.string().trim().max(256),
    passphrase: z.string().trim().max(256),
    /** The step-up of new secrets (asked only when a secret is typed). */
    proof: z.string().trim().max(20),
  });
  type Values = z.infer<typeof schema>;
  const [busy, setBusy] = useState(false);
  const twoFactorOn = useTwoFactorOn();
  const { register, handleSubmit, formState, setError, control } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { accountName: account.accountName, remark: account.remark ?? '', leverage: account.leverage, apiKey: '', secretKey: '', passphrase: '', proof: '' },
  });
  const newSecret = (useWatch({ control, name: 'secretKey' }) ?? '').trim() !== '';
  const errors = formState.errors;
  // The server's own message under the field it names (a wrong secret under the secret).
  const err = (f: keyof Values) => (errors[f]?.type === 'server' ? errors[f]?.message : errors[f] ? t(`form.error.${f}`, { max }) : undefined);
  /** `signed`: the new secret's step-up proved by a passkey instead of the typed code. */
  const save = (signed?: StepUpProof) => handleSubmit(async (v) => {
    setBusy(true);
    try {
      if (v.secretKey.trim() && !signed && !v.proof.trim()) {
        setError('proof', { type: 'server', message: t('form.error.proof') }, { shouldFocus: true });
        return;
      }
      await editAccount(account, v, v.secretKey.trim() ? (signed ?? stepUpBody(twoFactorOn, v.proof)) : {});
      await invalidateAccounts(queryClient);
      showToast(t('list.saved'), 'success');
      onClose();
    } catch (e) {
      // the message is shown as a toast; the field it names is marked too
      const named = errorField(e);
      const field = isStepUpField(named) ? 'proof' : named;
      if (field && field in schema.shape) setError(field as keyof Values, { type: 'server', message: (e as ApiError).message }, { shouldFocus: true });
    } finally {
      setBusy(false);
    }
  });
  return (
    <Sheet title={t('list.edit')} onClose={onClose} testId="edit-sheet">
      <form className="form" onSubmit={(e) => void save()(e)} noValidate data-testid="edit-form">
        <TextField label={t('form.accountName')} maxLength={32} data-testid="edit-accountName" error={err('accountName')} {...register('accountName')} />
        <TextField label={t('form.remark')} data-testid="edit-remark" error={err('remark')} {...register('remark')} />
        <TextField label={t('form.leverage')} type="number" inputMode="numeric" min={1} max={max} hint={t('form.leverageHint', { max })} data-testid="edit-leverage" error={err('leverage')} {...register('leverage', { valueAsNumber: true })} />
        {account.exchange !== 'mt5' ? (
          <>
            <p className="ak-secure">{t('form.newKeyHint')}</p>
            <TextField label={t('form.apiKey')} autoComplete="off" spellCheck={false} maxLength={128} placeholder={account.apiKeyMasked ?? ''} data-testid="edit-apiKey" error={err('apiKey')} {...register('apiKey')} />
            <TextField label={t('form.secretKey')} type="password" revealable autoComplete="off" maxLength={256} data-testid="edit-secretKey" error={err('secretKey')} {...register('secretKey')} />
            {account.exchange === 'okx' ? <TextField label={t('form.passphrase')} type="password" revealable autoComplete="off" maxLength={256} data-testid="edit-passphrase" error={err('passphrase')} {...register('passphrase')} /> : null}
            {newSecret ? <StepUpField codeType="API_KEY" testId="edit-proof" error={err('proof')} {...register('proof')} onPasskey={(signed) => save(signed)()} /> : null}
          </>
        ) : null}
        <Button type="submit" block busy={busy} data-testid="edit-submit">{t('form.save')}</Button>
      </form>
    </Sheet>
  );
}

/** A new bridge token (MT5): the step-up first, then the token shown once. */
function RotateSheet({ account, onClose, onRotated }: { account: AccountItem; onClose: () => void; onRotated: (token: string) => void }) {
  const { t } = useTranslation('apikey');
  return (
    <StepUpSheet
      title={t('list.rotate')}
      hint={t('list.rotateConfirm', { name: account.accountName })}
      codeType="API_KEY"
      submitLabel={t('list.rotate')}
      proofRequired={t('form.error.proof')}
      testId="rotate"
      onClose={onClose}
      onConfirm={async (proof) => {
        const r = await rotateToken(account.id, proof, { silent: true });
        if (r.bridgeToken) onRotated(r.bridgeToken);
      }}
    />
  );
}
