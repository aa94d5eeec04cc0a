// pages/withdraw/withdraw: Lightning out as USDT to an address on BEP20 or TRC20. The amount is what
// arrives; the fee comes on top; amount + fee are held at once. Server refusals land under the
// field they name (amount, address, paidPwd); one idempotency key per visit, so a double tap or a
// retry makes one withdrawal. With two-step on, a fresh code of the authenticator app as well.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from '../../lib/router';
import { useQueryClient } from '@tanstack/react-query';
import { CONVERSION_FEE, CONVERSION_MIN, DEPOSIT_NETWORKS, PAY_PWD_LENGTH, formatMoney, parseMoney, type DepositNetwork } from '@lq/contracts';
import { Button } from '../../components/Button';
import { StepUpField, useTwoFactorOn, type StepUpProof } from '../../components/StepUpField';
import { ApiError, errorField } from '../../lib/api';
import { useAppStore } from '../../lib/store';
import { useNow } from '../../lib/clock';
import { showToast } from '../../lib/toast';
import { AddressBook } from './AddressBook';
import { createWithdrawal, invalidateWallet, useSecurity, useWalletInfo, useWithdrawLimits } from './api';
import { displayMoney } from '../../lib/money';
import '../../components/screens.css';
import './wallet.css';

type Field = 'amount' | 'address' | 'paidPwd' | 'twoFactorCode';
const FEE = parseMoney(String(CONVERSION_FEE))!;
const MIN = parseMoney(String(CONVERSION_MIN))!;
const newKey = () => `wd-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;

export default function WithdrawPage() {
  const { t } = useTranslation('wallet');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const info = useWalletInfo();
  const limits = useWithdrawLimits();
  const [network, setNetwork] = useState<DepositNetwork>('BEP20');
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [paidPwd, setPaidPwd] = useState('');
  const [twoFactorCode, setTwoFactorCode] = useState('');
  const twoFactorOn = useTwoFactorOn();
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [busy, setBusy] = useState(false);
  const [key] = useState(newKey);
  // Said before anything is typed, not after a submit: without a payment password nothing can be sent.
  const noPayPwd = useAppStore((s) => s.user?.hasPaidPwd === false);
  // The security lock after a password, payment password or two-step change: said before anything is typed.
  const lockedUntil = useSecurity().data?.withdrawLockedUntil ?? null;
  const now = useNow();
  const locked = lockedUntil !== null && Date.parse(lockedUntil) > now;

  const available = info.data ? parseMoney(info.data.balanceWallet) : undefined;
  const typed = parseMoney(amount.trim());
  const maxAmount = available !== undefined && available > FEE ? available - FEE : 0n;

  /** `signed`: the step-up proved by a passkey instead of the typed code. */
  const submit = async (signed?: StepUpProof) => {
    const found: Partial<Record<Field, string>> = {};
    if (typed === undefined || typed <= 0n) found.amount = t('withdrawForm.amountFormat');
    else if (typed < MIN) found.amount = t('withdrawForm.belowMin', { min: CONVERSION_MIN });
    else if (available !== undefined && typed + FEE > available) found.amount = t('withdrawForm.aboveBalance', { amount: displayMoney(formatMoney(maxAmount)) });
    if (!address.trim()) found.address = t('withdrawForm.addressPick');
    if (!new RegExp(`^\\d{${PAY_PWD_LENGTH}}$`).test(paidPwd)) found.paidPwd = t('withdrawForm.pwdFormat', { n: PAY_PWD_LENGTH });
    if (twoFactorOn && !signed && !twoFactorCode.trim()) found.twoFactorCode = tc('auth.twoFactorRequired');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const w = await createWithdrawal({ network, address: address.trim(), amount: amount.trim(), paidPwd, idempotencyKey: key, ...(signed ?? (twoFactorOn ? { twoFactorCode: twoFactorCode.trim() } : {})) });
      await invalidateWallet(queryClient);
      navigate(`/pages/withdraw/withdrawDetail?id=${w.id}`, { replace: true });
    } catch (e) {
      const field = errorField(e);
      if (e instanceof ApiError && (field === 'amount' || field === 'address' || field === 'paidPwd' || field === 'twoFactorCode' || field === 'passkey')) {
        const shown = field === 'passkey' ? 'twoFactorCode' : field;
        setErrors({ [shown]: e.message });
        document.querySelector<HTMLInputElement>(`[data-field="${shown}"]`)?.focus();
      } else showToast(e instanceof ApiError ? e.message : tc('common.loadFailed'), 'error');
    } finally {
      setBusy(false);
    }
  };

  const fieldError = (f: Field) =>
    errors[f] ? (
      <p className="field-error" role="alert" id={`wd-${f}-error`} data-testid={`wd-${f}-error`}>
        {errors[f]}
      </p>
    ) : null;

  return (
    <div className="bt-page wl-page" data-testid="withdraw-page">
      <form
        className="card wl-recharge"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="wl-records-head">
          <h2 className="bt-h2">{t('withdrawForm.title')}</h2>
          <Link to="/pages/withdraw/withdrawRecord" data-testid="wd-records-link">{t('withdrawForm.records')}</Link>
        </div>
        <p className="bt-sub" data-testid="wd-available">{t('withdrawForm.available', { amount: info.data ? displayMoney(info.data.balanceWallet) : '--' })}</p>
        {limits.data ? (
          <p className="bt-sub" data-testid="wd-limits">
            {t('withdrawForm.limits', {
              day: displayMoney(limits.data.day.left),
              dayLimit: displayMoney(limits.data.day.limit),
              month: displayMoney(limits.data.month.left),
              monthLimit: displayMoney(limits.data.month.limit),
            })}
          </p>
        ) : null}
        <div className="wl-formats" role="radiogroup" aria-label={t('recharge.network')}>
          {DEPOSIT_NETWORKS.map((n) => (
            <button key={n} type="button" role="radio" aria-checked={network === n} className={`btn ${network === n ? 'btn-primary' : 'btn-secondary'}`} onClick={() => {
              setNetwork(n);
              setAddress('');
            }} data-testid={`wd-network-${n}`}>
              {t(`recharge.networkName.${n}`)}
            </button>
          ))}
        </div>
        <AddressBook
          network={network}
          selected={address}
          onSelect={(a) => {
            setAddress(a);
            if (a) setErrors(({ address: _picked, ...rest }) => rest);
          }}
          now={now}
          error={errors.address}
        />
        <label className="field">
          <span>{t('withdrawForm.amount')}</span>
          <span className="wl-amount-row">
            <input className="input num" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} autoComplete="off" aria-invalid={errors.amount ? true : undefined} aria-describedby="wd-amount-error" data-field="amount" data-testid="wd-amount" />
            <button type="button" className="btn btn-secondary wl-all" onClick={() => setAmount(formatMoney(maxAmount).replace(/\.?0+$/, ''))} data-testid="wd-all">{t('all')}</button>
          </span>
        </label>
        {fieldError('amount')}
        <dl className="wl-figures wl-withdraw-figures">
          <div><dt>{t('withdrawForm.fee')}</dt><dd data-testid="wd-fee">{displayMoney(formatMoney(FEE))}</dd></div>
          <div><dt>{t('withdrawForm.received')}</dt><dd data-testid="wd-received">{typed !== undefined && typed > 0n ? displayMoney(formatMoney(typed)) : '--'}</dd></div>
          <div><dt>{t('withdrawForm.total')}</dt><dd data-testid="wd-total">{typed !== undefined && typed > 0n ? displayMoney(formatMoney(typed + FEE)) : '--'}</dd></div>
        </dl>
        {locked && lockedUntil ? <LockNotice until={lockedUntil} now={now} /> : null}
        {noPayPwd ? (
          <div className="bt-notice wl-no-paypwd" role="status" data-testid="wd-no-paypwd">
            <p>{t('withdrawForm.noPayPwd')}</p>
            <Link className="btn btn-primary" to="/pages/changePwd/pay/changePayPwd" data-testid="wd-set-paypwd">{t('withdrawForm.setPayPwd')}</Link>
          </div>
        ) : null}
        <label className="field">
          <span>{t('withdrawForm.paidPwd')}</span>
          <input className="input num" type="password" inputMode="numeric" autoComplete="off" maxLength={PAY_PWD_LENGTH} value={paidPwd} disabled={noPayPwd} onChange={(e) => setPaidPwd(e.target.value.replace(/\D/g, ''))} aria-invalid={errors.paidPwd ? true : undefined} aria-describedby="wd-paidPwd-error" data-field="paidPwd" data-testid="wd-paidPwd" />
        </label>
        {fieldError('paidPwd')}
        <StepUpField codeType={null} testId="wd-2fa" data-field="twoFactorCode" value={twoFactorCode} onChange={(e) => setTwoFactorCode(e.target.value)} error={errors.twoFactorCode} onPasskey={submit} />
        <p className="wl-facts">{t('withdrawForm.arrives', { min: CONVERSION_MIN })}</p>
        <Button type="submit" block busy={busy} disabled={noPayPwd || locked} data-testid="wd-submit">{t('withdrawForm.submit')}</Button>
        {info.isError ? <p className="field-error">{tc('common.loadFailed')}</p> : null}
      </form>
    </div>
  );
}

/** How long the security lock still holds withdrawals back, in the user's words, and until when. */
function LockNotice({ until, now }: { until: string; now: number }) {
  const { t, i18n } = useTranslation('wallet');
  const totalMinutes = Math.max(1, Math.ceil((Date.parse(until) - now) / 60_000));
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  const at = new Intl.DateTimeFormat(i18n.language.replace('_', '-'), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(until));
  return (
    <div className="bt-notice wl-no-paypwd" role="status" data-testid="wd-locked" data-until={until}>
      <p>{t('withdrawForm.locked', { time: t('withdrawForm.lockedTime', { hours, minutes }), at })}</p>
    </div>
  );
}
