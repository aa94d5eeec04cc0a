import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from '../../lib/router';
import { mailFrom } from './carriedMail';
import { lazy, Suspense, useState } from 'react';
import type { LoginAnswer, LoginResult, TwoFactorMethod } from '@lq/contracts';
import { Button } from '../../components/Button';
import { SendCodeButton } from '../../components/SendCodeButton';
import { ApiError } from '../../lib/api';
import { TextField } from '../../components/TextField';
import { api, startSession } from '../../lib/session';
import { showToast } from '../../lib/toast';
import { fieldError } from '../../lib/validation';
import { formRules, useFirstScreenForm } from '../../lib/firstScreenForm';
import type { LoginForm } from './schemas';

const loginRules = formRules(() => import('./schemas').then((m) => m.loginForm));
// Loaded only when the account has two-step on.
const LoginSecondStep = lazy(() => import('./LoginSecondStep'));
/** The address had many failed sign-ins: a LOGIN e-mail code is needed with the password. */
const LOGIN_CODE_REQUIRED = 'A0248';

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  // The second step's challenge, while it is asked for.
  const [challenge, setChallenge] = useState<{ challenge: string; methods: TwoFactorMethod[] }>();
  // The address typed before the second step, for the form it may come back to.
  const [mailBefore, setMailBefore] = useState<string>();
  const [needCode, setNeedCode] = useState(false);
  const { attach, onChange, submit, field, values, errors, validValue } = useFirstScreenForm<LoginForm>(loginRules, { userMail: mailBefore ?? mailFrom(location.state), password: '', code: '' });
  const typedMail = values.userMail;

  const onSubmit = submit(async (values) => {
    setBusy(true);
    try {
      const code = values.code.trim();
      const answer = await api.post<LoginAnswer>('user/api/login', { userMail: values.userMail.trim(), password: values.password, ...(code ? { code } : {}) });
      if ('twoFactorRequired' in answer) {
        setMailBefore(values.userMail.trim());
        setChallenge({ challenge: answer.challenge, methods: answer.methods });
      } else signedIn(answer);
    } catch (error) {
      // The client already showed the server's message; a guarded address shows the code field.
      if (error instanceof ApiError && error.code === LOGIN_CODE_REQUIRED) setNeedCode(true);
    } finally {
      setBusy(false);
    }
  });

  function signedIn(result: LoginResult) {
    startSession(result.token, result.user);
    showToast(t('auth.loginSuccess'), 'success');
    const from = (location.state as { from?: string } | null)?.from;
    navigate(from && !from.startsWith('/pages/login') ? from : '/', { replace: true });
  }

  if (challenge) {
    return (
      <div className="auth-page">
        <h2>{t('auth.twoFactorTitle')}</h2>
        <Suspense fallback={<div className="center-view" style={{ minHeight: 120 }}><div className="spinner" role="status" aria-label={t('common.loading')} /></div>}>
          <LoginSecondStep challenge={challenge.challenge} methods={challenge.methods} onSignedIn={signedIn} onRestart={() => setChallenge(undefined)} />
        </Suspense>
      </div>
    );
  }

  return (
    <div className="auth-page">
      <h2>{t('auth.loginTitle')}</h2>
      <p className="sub">{t('auth.loginSubtitle')}</p>
      <form ref={attach} className="form" onSubmit={onSubmit} onChange={onChange} onFocus={loginRules.preload} noValidate data-testid="login-form">
        <TextField label={t('auth.email')} placeholder={t('auth.emailPlaceholder')} type="email" autoComplete="email" inputMode="email" data-testid="login-email" error={fieldError(t, errors.userMail, 'validation.email')} {...field('userMail')} />
        <TextField label={t('auth.password')} type="password" revealable autoComplete="current-password" data-testid="login-password" error={fieldError(t, errors.password, 'validation.required')} {...field('password')} />
        {needCode && (
          <TextField
            label={t('auth.code')}
            placeholder={t('auth.codePlaceholder')}
            inputMode="numeric"
            autoComplete="one-time-code"
            data-testid="login-code"
            hint={t('auth.loginCodeHint')}
            error={fieldError(t, errors.code, 'validation.codeFormat')}
            addon={<SendCodeButton codeType="LOGIN" getMail={async () => (await validValue('userMail'))?.trim()} testId="login-send-code" />}
            {...field('code')}
          />
        )}
        <Button type="submit" block busy={busy} data-testid="login-submit">
          {t('auth.login')}
        </Button>
        <div className="links">
          <Link to="/pages/forgetPwd/forgetPwd" state={{ mail: typedMail.trim() }} data-testid="link-forget">{t('auth.forgotPassword')}</Link>
          <Link to="/pages/rigister/register" state={{ mail: typedMail.trim() }} data-testid="link-register">
            {t('auth.noAccount')} {t('auth.register')}
          </Link>
        </div>
      </form>
    </div>
  );
}
