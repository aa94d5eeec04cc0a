import { useId, useState, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { INPUT_MAX_DEFAULT } from '@lq/contracts';
import { IconEye } from './icons';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: string;
  /** Already translated error text, shown under the field. */
  error?: string;
  hint?: ReactNode;
  /** Extra control to the right of the input (e.g. the send-code button). */
  addon?: ReactNode;
  ref?: Ref<HTMLInputElement>;
  /** Adds a show/hide toggle to password inputs. */
  revealable?: boolean;
}

export function TextField({ label, error, hint, addon, revealable, id, type = 'text', maxLength = INPUT_MAX_DEFAULT, ref, ...rest }: Props) {
  const { t } = useTranslation();
  const autoId = useId();
  const inputId = id ?? autoId;
  const [revealed, setRevealed] = useState(false);
  const describedBy = [error ? `${inputId}-err` : '', hint ? `${inputId}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <div className="input-row">
        <input
          ref={ref}
          id={inputId}
          className="input"
          type={revealable && revealed ? 'text' : type}
          maxLength={maxLength}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...rest}
        />
        {revealable ? (
          <button type="button" className="icon-btn" aria-pressed={revealed} aria-label={revealed ? t('auth.hidePassword') : t('auth.showPassword')} onClick={() => setRevealed((v) => !v)}>
            <IconEye />
          </button>
        ) : null}
        {addon}
      </div>
      {hint ? <p id={`${inputId}-hint`} className="field-hint">{hint}</p> : null}
      {error ? <p id={`${inputId}-err`} className="field-error" role="alert" data-testid={`${rest.name ?? inputId}-error`}>{error}</p> : null}
    </div>
  );
}
