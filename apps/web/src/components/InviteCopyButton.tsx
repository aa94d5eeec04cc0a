import { useTranslation } from 'react-i18next';
import { copyText, inviteLink } from '../lib/clipboard';
import { showToast } from '../lib/toast';

export function InviteCopyButton({ code, testId = 'copy-invite-link', className = 'btn btn-secondary' }: { code: string; testId?: string; className?: string }) {
  const { t } = useTranslation();
  const copy = async () => {
    const ok = await copyText(inviteLink(window.location.origin, code));
    showToast(ok ? t('account.inviteLinkCopied') : t('common.copyFailed'), ok ? 'success' : 'error');
  };
  return (
    <button type="button" className={className} onClick={() => void copy()} data-testid={testId} data-invite-link={inviteLink(window.location.origin, code)}>
      {t('account.copyInviteLink')}
    </button>
  );
}
