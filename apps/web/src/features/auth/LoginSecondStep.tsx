// The sign-in's second step (two-step verification on): the challenge `user/api/login` answered
// and a code of the authenticator app, one of the recovery codes, or a passkey (when the account
// has one and the browser can use it). A separate chunk: most visitors never see it, and the first
// screen stays small.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TWO_FACTOR_CODE_MAX, type LoginResult, type TwoFactorMethod } from '@lq/contracts';
import { Button } from '../../components/Button';
import { TextField } from '../../components/TextField';
import { ApiError } from '../../lib/api';
import {
  passkeyDismissed,
  passkeysSupported,
  signWithPasskey,
  type PublicKeyCredentialRequestOptionsJSON,
} from '../../lib/passkey';
import { api } from '../../lib/session';

// A challenge that expired or took 5 wrong codes: only a new sign-in helps.
const CHALLENGE_EXPIRED = 'A0227';

interface Props {
  challenge: string;
  /** What the account can answer with (`passkey` when it has one). */
  methods: TwoFactorMethod[];
  onSignedIn: (result: LoginResult) => void;
  /** Back to the password (the challenge is gone, or the user chose to). */
  onRestart: () => void;
}

export default function LoginSecondStep({ challenge, methods, onSignedIn, onRestart }: Props) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState<'code' | 'passkey'>();
  const canUsePasskey = methods.includes('passkey') && passkeysSupported();

  const refused = (err: unknown) => {
    if (err instanceof ApiError && err.code === CHALLENGE_EXPIRED) return onRestart();
    setError(err instanceof ApiError ? err.message : t('common.networkError'));
  };

  const signInWithPasskey = async () => {
    setBusy('passkey');
    setError(undefined);
    try {
      const options = await api.post<PublicKeyCredentialRequestOptionsJSON>(
        'user/api/login/2fa/passkey',
        { challenge },
        { silent: true },
      );
      let passkey;
      try {
        passkey = await signWithPasskey(options);
      } catch (err) {
        if (passkeyDismissed(err)) return;
        throw err;
      }
      onSignedIn(
        await api.post<LoginResult>('user/api/login/2fa', { challenge, passkey }, { silent: true }),
      );
    } catch (err) {
      refused(err);
    } finally {
      setBusy(undefined);
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const typed = code.trim();
    if (!typed) return setError(t('auth.twoFactorRequired'));
    setBusy('code');
    setError(undefined);
    try {
      onSignedIn(
        await api.post<LoginResult>(
          'user/api/login/2fa',
          { challenge, code: typed },
          { silent: true },
        ),
      );
    } catch (err) {
      refused(err);
      setCode('');
    } finally {
      setBusy(undefined);
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
      <Button
        type="submit"
        block
        busy={busy === 'code'}
        disabled={busy === 'passkey'}
        data-testid="login-2fa-submit"
      >
        {t('auth.twoFactorSubmit')}
      </Button>
      {canUsePasskey ? (
        <Button
          type="button"
          variant="secondary"
          block
          busy={busy === 'passkey'}
          disabled={busy === 'code'}
          onClick={() => void signInWithPasskey()}
          data-testid="login-2fa-passkey"
        >
          {t('auth.twoFactorPasskey')}
        </Button>
      ) : null}
      <div className="links">
        <button type="button" className="link-btn" onClick={onRestart} data-testid="login-2fa-back">
          {t('auth.twoFactorBack')}
        </button>
      </div>
    </form>
  );
}
