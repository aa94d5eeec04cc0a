// Verification-code button of spec §4: disabled while sending, then a 60 s countdown; a failure
// re-enables it with the "resend" label.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CODE_RESEND_SECONDS, type CodeType } from '@lq/contracts';
import { api } from '../lib/session';
import { TransportError } from '../lib/api';
import { showToast } from '../lib/toast';

interface Props {
  codeType: CodeType;
  /** Returns the address to send to, or undefined when the form shows an error instead. */
  getMail: () => Promise<string | undefined> | string | undefined;
  testId?: string;
}

export function SendCodeButton({ codeType, getMail, testId = 'send-code' }: Props) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const [left, setLeft] = useState(0);
  const [sentOnce, setSentOnce] = useState(false);

  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);

  const send = async () => {
    const userMail = await getMail();
    if (!userMail) return;
    setSending(true);
    try {
      await api.post('user/api/verify-code/send', { userMail, codeType }, { silent: true });
      showToast(t('auth.codeSent'), 'success');
      setLeft(CODE_RESEND_SECONDS);
    } catch (error) {
      showToast(error instanceof TransportError ? t('auth.sendFailed') : (error as Error).message, 'error');
    } finally {
      setSentOnce(true);
      setSending(false);
    }
  };

  const label = left > 0 ? t('auth.countdown', { seconds: left }) : sentOnce ? t('auth.resend') : t('auth.sendCode');
  return (
    <button type="button" className="btn btn-secondary" style={{ minWidth: 112, whiteSpace: 'nowrap' }} disabled={sending || left > 0} onClick={() => void send()} data-testid={testId} aria-live="polite">
      {label}
    </button>
  );
}
