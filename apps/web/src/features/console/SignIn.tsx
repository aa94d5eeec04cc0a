// Signing in to the console: e-mail and password, then the authenticator's 6 digits (or one of the
// recovery codes). A session without a fresh code can do nothing else (the server says A0215).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { consoleLoginBody, consoleSecondFactorBody, type ConsoleLoginBody, type ConsoleSession } from '@lq/contracts';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { consoleApi, endOperatorSession, setSecondFactorUntil, startOperatorSession } from './api';
import { useConsoleForm } from './form';

export function SignInStep() {
  const { t } = useTranslation('console');
  const form = useConsoleForm<ConsoleLoginBody>(consoleLoginBody, { userMail: '', password: '' }, async (v) => {
    const mail = v.userMail.trim().toLowerCase();
    startOperatorSession(mail, await consoleApi.post<ConsoleSession>('login', { userMail: mail, password: v.password }));
  });
  return (
    <form className="cs-card cs-narrow form" onSubmit={form.onSubmit} noValidate data-testid="console-login">
      <p className="cs-hint">{t('signIn.hint')}</p>
      <TextField label={t('signIn.mail')} type="email" autoComplete="username" data-testid="console-mail" error={form.errorOf('userMail')} {...form.register('userMail')} />
      <TextField label={t('signIn.password')} type="password" revealable autoComplete="current-password" data-testid="console-password" error={form.errorOf('password')} {...form.register('password')} />
      <Button type="submit" block busy={form.busy} data-testid="console-login-submit">{t('signIn.submit')}</Button>
    </form>
  );
}

type FactorForm = { code?: string; recoveryCode?: string };

export function SecondFactorStep({ mail }: { mail: string }) {
  const { t } = useTranslation('console');
  const [recovery, setRecovery] = useState(false);
  const form = useConsoleForm<FactorForm>(consoleSecondFactorBody, { code: undefined, recoveryCode: undefined }, async (v) => {
    const proved = await consoleApi.post<{ secondFactorUntil: number | null }>('second-factor', v);
    setSecondFactorUntil(proved.secondFactorUntil);
  });
  const field = recovery ? 'recoveryCode' : 'code';
  return (
    <form className="cs-card cs-narrow form" onSubmit={form.onSubmit} noValidate data-testid="console-second-factor">
      <p className="cs-hint">{t(recovery ? 'secondFactor.recoveryHint' : 'secondFactor.hint', { mail })}</p>
      <TextField
        key={field}
        label={t(recovery ? 'secondFactor.recoveryCode' : 'secondFactor.code')}
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        maxLength={recovery ? 14 : 6}
        autoFocus
        data-testid="console-code"
        error={form.errorOf(field) ?? form.errorOf(recovery ? 'code' : 'recoveryCode')}
        {...form.register(field, { setValueAs: (v: string) => (v?.trim() ? v.trim() : undefined) })}
      />
      <Button type="submit" block busy={form.busy} data-testid="console-code-submit">{t('secondFactor.submit')}</Button>
      <div className="cs-row">
        <button
          type="button"
          className="btn btn-ghost cs-small"
          onClick={() => {
            form.reset({ code: undefined, recoveryCode: undefined });
            setRecovery(!recovery);
          }}
          data-testid="console-use-recovery"
        >
          {t(recovery ? 'secondFactor.useCode' : 'secondFactor.useRecovery')}
        </button>
        <button type="button" className="btn btn-ghost cs-small" onClick={endOperatorSession} data-testid="console-restart">
          {t('secondFactor.restart')}
        </button>
      </div>
    </form>
  );
}
