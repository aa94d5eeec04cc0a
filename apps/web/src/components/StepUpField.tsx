// The proof an action that moves money or keys asks for (docs/api.md "Two-step verification"):
// with two-step on, a code of the authenticator app (`twoFactorCode`); without it, the e-mail code
// of the action's type (`code`, sent by the field's own button). `stepUpBody` names the value as
// the request carries it. With `codeType` null the field shows only when two-step is on.
import type { InputHTMLAttributes, Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { TWO_FACTOR_CODE_MAX, type CodeType } from '@lq/contracts';
import { useAppStore } from '../lib/store';
import { SendCodeButton } from './SendCodeButton';
import { TextField } from './TextField';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  codeType: CodeType | null;
  /** Already translated. */
  error?: string;
  testId: string;
  ref?: Ref<HTMLInputElement>;
}

export const useTwoFactorOn = () => useAppStore((s) => s.user?.twoFactorEnabled === true);

/** The request fields of a typed proof (nothing when it is empty: the server names what is missing). */
export function stepUpBody(twoFactorOn: boolean, value: string | undefined): { twoFactorCode?: string; code?: string } {
  const typed = value?.trim();
  if (!typed) return {};
  return twoFactorOn ? { twoFactorCode: typed } : { code: typed };
}

/** The server's `field` of a refused proof. */
export const isStepUpField = (field: unknown) => field === 'twoFactorCode' || field === 'code';

export function StepUpField({ codeType, error, testId, ...input }: Props) {
  const { t } = useTranslation();
  const twoFactorOn = useTwoFactorOn();
  const mail = useAppStore((s) => s.user?.mail ?? '');
  if (twoFactorOn) {
    return (
      <TextField
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
