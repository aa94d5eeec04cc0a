// Payment password (spec §2, §4): "set" or "change" mode from `paid-pwd/judge`, code by e-mail
// (MAIL_PAID_PWD_RESET), 6 digits twice; with two-step on, its code as well.
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { payPwd, verifyCode, PAY_PWD_LENGTH } from '@lq/contracts';
import { Button } from '../../components/Button';
import { SendCodeButton } from '../../components/SendCodeButton';
import { StepUpField, useTwoFactorOn, type StepUpProof } from '../../components/StepUpField';
import { Sheet } from '../../components/Sheet';
import { TextField } from '../../components/TextField';
import { TransportError } from '../../lib/api';
import { api } from '../../lib/session';
import { appStore, useAppStore } from '../../lib/store';
import { showToast } from '../../lib/toast';
import { fieldError } from '../../lib/validation';

const payPwdForm = z
  .object({ code: verifyCode, paidPwd: payPwd, paidPwdAgain: z.string(), twoFactorCode: z.string() })
  .refine((f) => f.paidPwd === f.paidPwdAgain, { error: 'errors.PAY_PWD_DIFFER', path: ['paidPwdAgain'] });
type PayPwdForm = z.input<typeof payPwdForm>;

export type PayPwdMode = 'set' | 'change';

export function usePayPwdMode(): PayPwdMode | undefined {
  const { t } = useTranslation();
  const token = useAppStore((s) => s.token);
  const [mode, setMode] = useState<PayPwdMode>();
  useEffect(() => {
    if (!token) return;
    let live = true;
    api.get<boolean>('user/api/paid-pwd/judge', { silent: true }).then(
      (isSet) => live && setMode(isSet ? 'change' : 'set'),
      (error: unknown) => {
        if (!live) return;
        showToast(error instanceof TransportError ? t('common.networkAbnormal') : (error as Error).message, 'error');
        setMode('set');
      },
    );
    return () => {
      live = false;
    };
  }, [token, t]);
  return mode;
}

export function PayPwdForm({ mode, onDone }: { mode: PayPwdMode; onDone: () => void }) {
  const { t } = useTranslation();
  const mail = useAppStore((s) => s.user?.mail ?? '');
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const twoFactorOn = useTwoFactorOn();
  const { register, handleSubmit, formState } = useForm<PayPwdForm>({ resolver: zodResolver(payPwdForm), defaultValues: { code: '', paidPwd: '', paidPwdAgain: '', twoFactorCode: '' } });
  const errors = formState.errors;
  /** `signed`: the step-up proved by a passkey instead of the typed code. */
  const save = (signed?: StepUpProof) => handleSubmit(async (values) => {
    setBusy(true);
    try {
      const { twoFactorCode, ...rest } = values;
      const proof = signed ?? (twoFactorOn && twoFactorCode.trim() ? { twoFactorCode: twoFactorCode.trim() } : {});
      await api.post('user/api/paid-pwd/edit', { ...rest, code: values.code.trim(), ...proof }, { silent: true });
      // Every screen that reads it (Mine's row, the withdrawal form) knows at once, without a reload.
      const user = appStore.getState().user;
      if (user && !user.hasPaidPwd) appStore.getState().setUser({ ...user, hasPaidPwd: true });
      // A user-info read still in flight from before would put "not set" back: read it again.
      void queryClient.invalidateQueries({ queryKey: ['user-info'] });
      // A change (not the first setting) starts the security lock the withdrawal form shows.
      void queryClient.invalidateQueries({ queryKey: ['user', 'security'] });
      showToast(t('account.payPwdSaved'), 'success');
      onDone();
    } catch (error) {
      showToast(error instanceof TransportError ? t('common.networkError') : (error as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  });
  const digits = { inputMode: 'numeric' as const, pattern: '[0-9]*', maxLength: PAY_PWD_LENGTH, type: 'password', autoComplete: 'off' };
  return (
    <form className="form" onSubmit={(e) => void save()(e)} noValidate data-testid="paypwd-form" data-mode={mode}>
      <p className="field-hint">{t('account.payPwdCodeHint', { mail })}</p>
      <TextField
        label={t('auth.code')}
        placeholder={t('auth.codePlaceholder')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={8}
        data-testid="paypwd-code"
        error={fieldError(t, errors.code, 'validation.codeFormat')}
        addon={<SendCodeButton codeType="MAIL_PAID_PWD_RESET" getMail={() => mail || undefined} testId="paypwd-send-code" />}
        {...register('code')}
      />
      <TextField label={t('account.payPwd')} placeholder={t('account.payPwdPlaceholder')} {...digits} data-testid="paypwd-new" error={fieldError(t, errors.paidPwd, 'validation.payPwdFormat')} {...register('paidPwd')} />
      <TextField label={t('account.payPwdAgain')} placeholder={t('account.payPwdPlaceholder')} {...digits} data-testid="paypwd-again" error={fieldError(t, errors.paidPwdAgain, 'validation.payPwdDiffer')} {...register('paidPwdAgain')} />
      <StepUpField codeType={null} testId="paypwd-2fa" {...register('twoFactorCode')} onPasskey={(signed) => save(signed)()} />
      <Button type="submit" block busy={busy} data-testid="paypwd-submit">
        {t('common.confirm')}
      </Button>
    </form>
  );
}

export function ChangePayPwdDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const mode = usePayPwdMode();
  return (
    <Sheet title={mode === 'change' ? t('account.changePayPwd') : t('account.setPayPwd')} onClose={onClose} testId="paypwd-dialog">
      {mode ? <PayPwdForm mode={mode} onDone={onClose} /> : <div className="center-view" style={{ minHeight: 120 }}><div className="spinner" role="status" aria-label={t('common.loading')} /></div>}
    </Sheet>
  );
}
