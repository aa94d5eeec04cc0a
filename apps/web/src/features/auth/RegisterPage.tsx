import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from '../../lib/router';
import { mailFrom } from './carriedMail';
import { Button } from '../../components/Button';
import { SendCodeButton } from '../../components/SendCodeButton';
import { TextField } from '../../components/TextField';
import { api } from '../../lib/session';
import { showToast } from '../../lib/toast';
import type { ApiError} from '../../lib/api';
import { errorField } from '../../lib/api';
import { fieldError, messageForField } from '../../lib/validation';
import { countryOptions } from './countries';
import { formRules, useFirstScreenForm } from '../../lib/firstScreenForm';
import type { RegisterForm } from './schemas';

// A first screen (invite links, reset mails): the rules load on the form's first focus.
const registerRules = formRules(() => import('./schemas').then((m) => m.registerForm));

/** Fields the server may name in a refusal (`data.field`). */
const REGISTER_FIELDS = ['userMail', 'code', 'password', 'inviteCode', 'country'] as const;
type RegisterField = (typeof REGISTER_FIELDS)[number];

export default function RegisterPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const lang = i18n.language === 'in_ID' ? 'id-ID' : i18n.language;
  const countries = useMemo(() => countryOptions(lang), [lang]);
  const location = useLocation();
  const { attach, onChange, submit, field, values, errors, validValue, setServerError } = useFirstScreenForm<RegisterForm>(registerRules, { userMail: mailFrom(location.state), code: '', password: '', passwordAgain: '', inviteCode: params.get('inviteCode') ?? '', country: '', agree: false });
  const typedMail = values.userMail;

  const onSubmit = submit(async ({ userMail, code, password, passwordAgain: _again, agree: _agree, inviteCode, country }) => {
    setBusy(true);
    try {
      await api.post('user/api/register', { userMail: userMail.trim(), code: code.trim(), password, country, ...(inviteCode.trim() ? { inviteCode: inviteCode.trim() } : {}) });
      showToast(t('auth.registerSuccess'), 'success');
      navigate('/pages/login/login', { replace: true, state: { mail: userMail.trim() } });
    } catch (e) {
      // The message is shown as a toast; the field it names (country refused, wrong code) shows it too.
      const field = errorField(e);
      if (field && REGISTER_FIELDS.includes(field as RegisterField)) setServerError(field as RegisterField, messageForField((e as ApiError).message, field));
    } finally {
      setBusy(false);
    }
  });

  const mailForCode = async () => (await validValue('userMail'))?.trim();

  return (
    <div className="auth-page">
      <h2>{t('auth.registerTitle')}</h2>
      <form ref={attach} className="form" onSubmit={onSubmit} onChange={onChange} onFocus={registerRules.preload} noValidate data-testid="register-form">
        <TextField label={t('auth.email')} placeholder={t('auth.emailPlaceholder')} type="email" autoComplete="email" inputMode="email" data-testid="register-email" error={fieldError(t, errors.userMail, 'validation.email')} {...field('userMail')} />
        <TextField
          label={t('auth.code')}
          placeholder={t('auth.codePlaceholder')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          data-testid="register-code"
          error={fieldError(t, errors.code, 'validation.codeFormat')}
          addon={<SendCodeButton codeType="REGISTER" getMail={mailForCode} testId="register-send-code" />}
          {...field('code')}
        />
        <TextField label={t('auth.password')} placeholder={t('auth.passwordPlaceholder')} type="password" revealable autoComplete="new-password" data-testid="register-password" error={fieldError(t, errors.password, 'validation.passwordWeak')} {...field('password')} />
        <TextField label={t('auth.passwordAgain')} placeholder={t('auth.passwordAgainPlaceholder')} type="password" autoComplete="new-password" data-testid="register-password-again" error={fieldError(t, errors.passwordAgain, 'validation.passwordsDiffer')} {...field('passwordAgain')} />
        <div className="field">
          <label htmlFor="register-country">{t('auth.country')}</label>
          <select id="register-country" className="input" data-testid="register-country" aria-invalid={errors.country ? true : undefined} aria-describedby="register-country-note" {...field('country')}>
            <option value="">{t('auth.countryPlaceholder')}</option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          <p id="register-country-note" className="field-hint">{t('auth.countryNote')}</p>
          {errors.country ? <p className="field-error" role="alert" data-testid="country-error">{fieldError(t, errors.country, 'validation.country')}</p> : null}
        </div>
        <TextField label={t('auth.inviteCode')} placeholder={t('auth.inviteCodePlaceholder')} autoComplete="off" maxLength={16} data-testid="register-invite" error={fieldError(t, errors.inviteCode)} {...field('inviteCode')} />
        <div className="field">
          <label className="check">
            <input type="checkbox" data-testid="register-agree" {...field('agree')} />
            <span>
              {t('auth.agreePrefix')} <Link to="/pages/agreement/privacy/privacy">{t('nav.privacy')}</Link> {t('auth.and')} <Link to="/pages/agreement/license/license">{t('nav.license')}</Link>
            </span>
          </label>
          {errors.agree ? <p className="field-error" role="alert" data-testid="agree-error">{t('validation.agree')}</p> : null}
        </div>
        <Button type="submit" block busy={busy} data-testid="register-submit">
          {t('auth.register')}
        </Button>
        <div className="links">
          <Link to="/pages/login/login" state={{ mail: typedMail.trim() }} data-testid="link-login">
            {t('auth.haveAccount')} {t('auth.login')}
          </Link>
        </div>
      </form>
    </div>
  );
}
