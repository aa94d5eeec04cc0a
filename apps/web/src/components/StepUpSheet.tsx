// A sheet that confirms one action with the step-up (StepUpField): a hint, the proof, the button.
// A refused proof is shown under the field; anything else as a toast (callers send their request
// with `silent`, so it is reported once).
import { useState, type ReactNode } from 'react';
import type { CodeType } from '@lq/contracts';
import { ApiError, errorField } from '../lib/api';
import { showToast } from '../lib/toast';
import { Button } from './Button';
import { Sheet } from './Sheet';
import { isStepUpField, stepUpBody, StepUpField, useTwoFactorOn, type StepUpProof } from './StepUpField';

interface Props {
  title: string;
  hint: ReactNode;
  /** The e-mail code's type when two-step is off (null: only a two-step code). */
  codeType: CodeType | null;
  submitLabel: string;
  /** Already translated: the message when the proof is left empty. */
  proofRequired: string;
  danger?: boolean;
  /** Names the sheet `${testId}-sheet`, its proof field `${testId}-proof`, its button `${testId}-submit`. */
  testId: string;
  onClose: () => void;
  /** Does the action with the proof's request fields; closing is up to it. */
  onConfirm: (proof: StepUpProof) => Promise<void>;
  /** After a refusal that is not the proof's (the list may have changed meanwhile). */
  onRefused?: () => void;
}

export function StepUpSheet({
  title,
  hint,
  codeType,
  submitLabel,
  proofRequired,
  danger,
  testId,
  onClose,
  onConfirm,
  onRefused,
}: Props) {
  const twoFactorOn = useTwoFactorOn();
  const [proof, setProof] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const confirm = async (body: StepUpProof) => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm(body);
    } catch (e) {
      if (e instanceof ApiError && isStepUpField(errorField(e))) setError(e.message);
      else {
        showToast((e as Error).message, 'error');
        onRefused?.();
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <Sheet title={title} onClose={onClose} testId={`${testId}-sheet`}>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!proof.trim()) setError(proofRequired);
          else void confirm(stepUpBody(twoFactorOn, proof));
        }}
      >
        <p className="field-hint">{hint}</p>
        <StepUpField
          codeType={codeType}
          testId={`${testId}-proof`}
          name={`${testId}-proof`}
          value={proof}
          onChange={(e) => setProof(e.target.value)}
          error={error}
          onPasskey={confirm}
        />
        <Button
          type="submit"
          block
          variant={danger ? 'danger' : 'primary'}
          busy={busy}
          data-testid={`${testId}-submit`}
        >
          {submitLabel}
        </Button>
      </form>
    </Sheet>
  );
}
