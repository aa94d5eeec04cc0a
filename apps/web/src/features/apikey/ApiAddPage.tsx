// pages/apikey/apiAdd?exchange=binance|okx|mt5: bind a trading account. Crypto: name, remark, API
// key, secret key, passphrase (OKX), leverage; the secret key and passphrase are encrypted in the
// browser (RSA-OAEP, the server's public key) before they are sent; the exchange's answer to the
// key check is shown (refusal as a toast, warnings on the result). MT5: name, remark, leverage;
// the answer carries the bridge token, shown once with the Expert Advisor's install steps. Binding
// is a step-up action: a two-step code (two-step on) or an API_KEY code by e-mail.
import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from '../../lib/router';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ACCOUNT_LEVERAGE_DEFAULT, ACCOUNT_LEVERAGE_MAX, accountName, accountRemark, apiKeyValue, type AccountBindResult, type AccountExchange } from '@lq/contracts';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { isStepUpField, stepUpBody, StepUpField, useTwoFactorOn, type StepUpProof } from '../../components/StepUpField';
import { ApiError, errorField } from '../../lib/api';
import { addPath, bindCrypto, bindMt5, EXCHANGES, forgetPublicKey, invalidateAccounts, isExchange, listPath, marketOf } from './api';
import { TokenPanel, Warnings } from './ui';
import './apikey.css';

const secretText = z.string().trim().min(1, { error: 'required' }).max(256);

function formSchema(exchange: AccountExchange) {
  const market = marketOf(exchange);
  return z.object({
    accountName,
    remark: accountRemark,
    apiKey: exchange === 'mt5' ? z.string() : apiKeyValue,
    secretKey: exchange === 'mt5' ? z.string() : secretText,
    passphrase: exchange === 'okx' ? secretText : z.string(),
    leverage: z.number({ error: 'leverage' }).int({ error: 'leverage' }).min(1, { error: 'leverage' }).max(ACCOUNT_LEVERAGE_MAX[market], { error: 'leverage' }),
    /** The step-up code: the e-mail code, or the two-step code when two-step is on. */
    proof: z.string().trim().min(1, { error: 'required' }),
  });
}
type FormValues = z.infer<ReturnType<typeof formSchema>>;

export default function ApiAddPage() {
  const [search] = useSearchParams();
  const q = search.get('exchange');
  const exchange: AccountExchange = isExchange(q) ? q : 'binance';
  // a new form per exchange (its own rules and defaults)
  return <AddForm key={exchange} exchange={exchange} />;
}

function AddForm({ exchange }: { exchange: AccountExchange }) {
  const { t } = useTranslation('apikey');
  const queryClient = useQueryClient();
  const market = marketOf(exchange);
  const schema = useMemo(() => formSchema(exchange), [exchange]);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<AccountBindResult | null>(null);
  const twoFactorOn = useTwoFactorOn();
  // A passkey's signature stands in for the typed code: the form's rules then leave the code out.
  const signing = useRef(false);
  const signedSchema = useMemo(() => schema.extend({ proof: z.string() }), [schema]);
  const { register, handleSubmit, formState, setError } = useForm<FormValues>({
    resolver: (values, context, options) => zodResolver(signing.current ? signedSchema : schema)(values, context, options),
    defaultValues: { accountName: '', remark: '', apiKey: '', secretKey: '', passphrase: '', leverage: ACCOUNT_LEVERAGE_DEFAULT[market], proof: '' },
  });
  const errors = formState.errors;
  const max = ACCOUNT_LEVERAGE_MAX[market];
  const err = (field: keyof FormValues) => (errors[field] ? t(`form.error.${field}`, { max }) : undefined);

  /** `signed`: the step-up proved by a passkey instead of the typed code. */
  const bind = (signed?: StepUpProof) => {
    signing.current = signed !== undefined;
    return handleSubmit(async (v) => {
    setBusy(true);
    try {
      const proof = signed ?? stepUpBody(twoFactorOn, v.proof);
      const res =
        exchange === 'mt5'
          ? await bindMt5({ accountName: v.accountName, remark: v.remark, leverage: v.leverage }, proof)
          : await bindCrypto({ exchange, accountName: v.accountName, remark: v.remark, apiKey: v.apiKey, secretKey: v.secretKey, passphrase: v.passphrase, leverage: v.leverage }, proof);
      setResult(res);
      await invalidateAccounts(queryClient);
    } catch (e) {
      // the server's message is already shown; point at the field it names
      if (e instanceof ApiError) {
        if (e.code === 'A0336') forgetPublicKey();
        const named = errorField(e);
        const field = isStepUpField(named) ? 'proof' : named;
        if (field && field in schema.shape) setError(field as keyof FormValues, { type: 'server', message: e.message }, { shouldFocus: true });
      }
    } finally {
      setBusy(false);
    }
    });
  };

  if (result) {
    const a = result.account;
    return (
      <div className="bt-page" data-testid="apikey-bound" style={{ maxWidth: 640, margin: '0 auto' }}>
        <section className="card ak-card">
          <div className="ak-card-title">
            <strong>{t('result.bound')}</strong>
            <small>
              {a.accountName} · {t(`exchange.${a.exchange}`)}
              {a.apiKeyMasked ? ` · ${a.apiKeyMasked}` : ''}
            </small>
          </div>
          {a.warnings.length > 0 ? <p className="ak-secure">{t('result.warnings')}</p> : null}
          <Warnings warnings={a.warnings} testId="bound-warnings" />
        </section>
        {result.bridgeToken ? <TokenPanel token={result.bridgeToken} /> : null}
        <Link className="btn btn-primary btn-block" to={listPath(market)} replace data-testid="bound-to-list">{t('result.toList')}</Link>
      </div>
    );
  }

  const serverError = (field: keyof FormValues) => (errors[field]?.type === 'server' ? errors[field]?.message : undefined);
  return (
    <form className="form" onSubmit={(e) => void bind()(e)} noValidate data-testid="apikey-form" data-exchange={exchange}>
      <div className="field">
        <span className="bt-label">{t('form.exchange')}</span>
        <div className="ak-segment" role="group" aria-label={t('form.exchange')}>
          {EXCHANGES[market].map((e) => (
            <Link key={e} to={addPath(e)} replace className="bt-segment-item" aria-current={e === exchange ? 'true' : undefined} style={{ display: 'inline-flex', alignItems: 'center', textDecoration: 'none', color: 'inherit', borderColor: e === exchange ? 'var(--accent)' : undefined }} data-testid={`add-exchange-${e}`}>
              {t(`exchange.${e}`)}
            </Link>
          ))}
        </div>
      </div>
      <TextField label={t('form.accountName')} placeholder={t('form.accountNamePlaceholder')} maxLength={32} autoComplete="off" data-testid="add-accountName" error={serverError('accountName') ?? err('accountName')} {...register('accountName')} />
      <TextField label={t('form.remark')} autoComplete="off" data-testid="add-remark" error={serverError('remark') ?? err('remark')} {...register('remark')} />
      {exchange !== 'mt5' ? (
        <>
          <p className="ak-secure">{t(`form.permissions.${exchange}`)}</p>
          <TextField label={t('form.apiKey')} autoComplete="off" spellCheck={false} maxLength={128} data-testid="add-apiKey" error={serverError('apiKey') ?? err('apiKey')} {...register('apiKey')} />
          <TextField label={t('form.secretKey')} type="password" revealable autoComplete="off" maxLength={256} data-testid="add-secretKey" error={serverError('secretKey') ?? err('secretKey')} {...register('secretKey')} />
          {exchange === 'okx' ? (
            <TextField label={t('form.passphrase')} type="password" revealable autoComplete="off" maxLength={256} data-testid="add-passphrase" error={serverError('passphrase') ?? err('passphrase')} {...register('passphrase')} />
          ) : null}
        </>
      ) : (
        <p className="ak-secure">{t('form.mt5Intro')}</p>
      )}
      <TextField label={t('form.leverage')} type="number" inputMode="numeric" min={1} max={max} hint={t('form.leverageHint', { max })} data-testid="add-leverage" error={serverError('leverage') ?? err('leverage')} {...register('leverage', { valueAsNumber: true })} />
      <StepUpField codeType="API_KEY" testId="add-proof" error={serverError('proof') ?? err('proof')} {...register('proof')} onPasskey={(signed) => bind(signed)()} />
      {exchange !== 'mt5' ? <p className="ak-secure" data-testid="add-secure-note">🔒 {t('form.secure')}</p> : null}
      <Button type="submit" block busy={busy} data-testid="add-submit">
        {busy && exchange !== 'mt5' ? t('form.checking') : t('form.submit')}
      </Button>
    </form>
  );
}
