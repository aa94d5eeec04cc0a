// The sign-in's second step (two-step verification on): the challenge `user/api/login` answered
// and a code of the authenticator app, or one of the recovery codes. A separate chunk: most
// visitors never see it, and the first screen stays small.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TWO_FACTOR_CODE_MAX, type LoginResult } from '@lq/contracts';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { ApiError } from '../../lib/api';
import { api } from '../../lib/session';

// A challenge that expired or took 5 wrong codes: only a new sign-in helps.
const CHALLENGE_EXPIRED = 'A0227';

interface Props {
  challenge: string;
  onSignedIn: (result: LoginResult) => void;
  /** Back to the password (the challenge is gone, or the user chose to). */
  onRestart: () => void;
}

export default function LoginSecondStep({ challenge, onSignedIn, onRestart }: Props) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const typed = code.trim();
    if (!typed) return setError(t('auth.twoFactorRequired'));
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await api.post<LoginResult>('user/api/login/2fa', { challenge, code: typed }, { silent: true }));
    } catch (err) {
      if (err instanceof ApiError && err.code === CHALLENGE_EXPIRED) return onRestart();
      setError(err instanceof ApiError ? err.message : t('common.networkError'));
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="form" onSubmit={(e) => void submit(e)} noValidate data-testid="login-2fa-form">
      <p className="field-hint">{t('auth.twoFactorHint')}</p>
      <TextField
        label={t('auth.twoFactorCode')}
        placeholder={t('auth.twoFactorPlaceholder')}
        autoComplete="one-time-code"
        autoFocus
        spellCheck={false}
        maxLength={TWO_FACTOR_CODE_MAX}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        name="code"
        data-testid="login-2fa-code"
        error={error}
      />
      <Button type="submit" block busy={busy} data-testid="login-2fa-submit">
        {t('auth.twoFactorSubmit')}
      </Button>
      <div className="links">
        <button type="button" className="link-btn" onClick={onRestart} data-testid="login-2fa-back">
          {t('auth.twoFactorBack')}
        </button>
      </div>
    </form>
  );
}
