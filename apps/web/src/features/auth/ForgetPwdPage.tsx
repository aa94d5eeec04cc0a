import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from '../../lib/router';
import { mailFrom } from './carriedMail';
import { Button } from '../../components/Button';
import { SendCodeButton } from '../../components/SendCodeButton';
import { TextField } from '../../components/TextField';
import { api } from '../../lib/session';
import { showToast } from '../../lib/toast';
import { fieldError } from '../../lib/validation';
import { formRules, useFirstScreenForm } from '../../lib/firstScreenForm';
import type { ResetForm } from './schemas';

// A first screen (invite links, reset mails): the rules load on the form's first focus.
const resetRules = formRules(() => import('./schemas').then((m) => m.resetForm));

export default function ForgetPwdPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const { attach, onChange, submit, field, values, errors, validValue } = useFirstScreenForm<ResetForm>(resetRules, { userMail: mailFrom(location.state), code: '', password: '', passwordAgain: '' });
  const typedMail = values.userMail;

  const onSubmit = submit(async (values) => {
    setBusy(true);
    try {
      await api.post('user/api/password/reset', { ...values, userMail: values.userMail.trim(), code: values.code.trim() });
      showToast(t('auth.resetSuccess'), 'success');
      navigate('/pages/login/login', { replace: true, state: { mail: values.userMail.trim() } });
    } catch {
      // message already shown
    } finally {
      setBusy(false);
    }
  });

  const mailForCode = async () => (await validValue('userMail'))?.trim();

  return (
    <div className="auth-page">
      <h2>{t('auth.resetTitle')}</h2>
      <form ref={attach} className="form" onSubmit={onSubmit} onChange={onChange} onFocus={resetRules.preload} noValidate data-testid="forget-form">
        <TextField label={t('auth.email')} placeholder={t('auth.emailPlaceholder')} type="email" autoComplete="email" inputMode="email" data-testid="forget-email" error={fieldError(t, errors.userMail, 'validation.email')} {...field('userMail')} />
        <TextField
          label={t('auth.code')}
          placeholder={t('auth.codePlaceholder')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          data-testid="forget-code"
          error={fieldError(t, errors.code, 'validation.codeFormat')}
          addon={<SendCodeButton codeType="LOGIN_PWD_RESET" getMail={mailForCode} testId="forget-send-code" />}
          {...field('code')}
        />
        <TextField label={t('account.newPassword')} placeholder={t('auth.passwordPlaceholder')} type="password" revealable autoComplete="new-password" data-testid="forget-password" error={fieldError(t, errors.password, 'validation.passwordWeak')} {...field('password')} />
        <TextField label={t('account.newPasswordAgain')} type="password" autoComplete="new-password" data-testid="forget-password-again" error={fieldError(t, errors.passwordAgain, 'validation.passwordsDiffer')} {...field('passwordAgain')} />
        <Button type="submit" block busy={busy} data-testid="forget-submit">
          {t('auth.resetSubmit')}
        </Button>
        <div className="links">
          <Link to="/pages/login/login" state={{ mail: typedMail.trim() }}>{t('auth.login')}</Link>
        </div>
      </form>
    </div>
  );
}
