// The proof an action that moves money or keys asks for (docs/api.md "Two-step verification"):
// with two-step on, a code of the authenticator app (`twoFactorCode`); without it, the e-mail code
// of the action's type (`code`, sent by the field's own button). `stepUpBody` names the value as
// the request carries it. With `codeType` null the field shows only when two-step is on. Given
// `onPasskey`, an account with a passkey may sign instead of typing: the button beside the code
// asks the browser and hands the assertion (`passkey`) to the caller, which sends the action.
import { useState, type InputHTMLAttributes, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { TWO_FACTOR_CODE_MAX, type CodeType, type WebauthnResponse } from '@lq/contracts';
import { ApiError } from '../lib/api';
import {
  fetchPasskeys,
  PASSKEYS_QUERY_KEY,
  passkeysSupported,
  stepUpWithPasskey,
} from '../lib/passkey';
import { useAppStore } from '../lib/store';
import { showToast } from '../lib/toast';
import { SendCodeButton } from './SendCodeButton';
import { TextField } from './TextField';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  codeType: CodeType | null;
  /** Already translated. */
  error?: string;
  testId: string;
  ref?: Ref<HTMLInputElement>;
  /** Sends the action proved by a passkey instead of the typed code (the button is `${testId}-passkey`). */
  onPasskey?: (proof: { passkey: WebauthnResponse }) => Promise<void> | void;
}

/** The request fields that prove an action: a typed code, or a passkey's assertion. */
export interface StepUpProof {
  twoFactorCode?: string;
  code?: string;
  passkey?: WebauthnResponse;
}

export const useTwoFactorOn = () => useAppStore((s) => s.user?.twoFactorEnabled === true);

/** The request fields of a typed proof (nothing when it is empty: the server names what is missing). */
export function stepUpBody(twoFactorOn: boolean, value: string | undefined): StepUpProof {
  const typed = value?.trim();
  if (!typed) return {};
  return twoFactorOn ? { twoFactorCode: typed } : { code: typed };
}

/** The server's `field` of a refused proof. */
export const isStepUpField = (field: unknown) =>
  field === 'twoFactorCode' || field === 'code' || field === 'passkey';

export function StepUpField({ codeType, error, testId, onPasskey, ...input }: Props) {
  const { t } = useTranslation();
  const twoFactorOn = useTwoFactorOn();
  const mail = useAppStore((s) => s.user?.mail ?? '');
  const canSign = twoFactorOn && onPasskey !== undefined && passkeysSupported();
  const passkeys = useQuery({ queryKey: PASSKEYS_QUERY_KEY, queryFn: fetchPasskeys, enabled: canSign });
  const [signing, setSigning] = useState(false);
  const sign = async () => {
    setSigning(true);
    try {
      const passkey = await stepUpWithPasskey();
      if (passkey) await onPasskey!({ passkey });
    } catch (e) {
      // The action's own refusals are the caller's to show; this reports the ceremony's.
      showToast(e instanceof ApiError ? e.message : t('auth.passkeyFailed'), 'error');
    } finally {
      setSigning(false);
    }
  };
  if (twoFactorOn) {
    return (
      <TextField
        addon={
          canSign && (passkeys.data?.length ?? 0) > 0 ? (
            <button
              type="button"
              className="btn btn-secondary"
              style={{ whiteSpace: 'nowrap' }}
              disabled={signing}
              aria-busy={signing}
              onClick={() => void sign()}
              data-testid={`${testId}-passkey`}
            >
              {t('auth.stepUpPasskey')}
            </button>
          ) : undefined
        }
        label={t('auth.twoFactorCode')}
        placeholder={t('auth.twoFactorPlaceholder')}
        hint={t('auth.twoFactorStepUpHint')}
        autoComplete="one-time-code"
        spellCheck={false}
        maxLength={TWO_FACTOR_CODE_MAX}
        data-testid={testId}
        data-step-up="twoFactorCode"
        error={error}
        {...input}
      />
    );
  }
  if (!codeType) return null;
  return (
    <TextField
      label={t('auth.code')}
      placeholder={t('auth.codePlaceholder')}
      hint={t('auth.stepUpMailHint', { mail })}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={8}
      data-testid={testId}
      data-step-up="code"
      error={error}
      addon={<SendCodeButton codeType={codeType} getMail={() => mail || undefined} testId={`${testId}-send`} />}
      {...input}
    />
  );
}
