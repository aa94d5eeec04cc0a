// Top-bar user menu of spec §2: opens on hover (and on click or focus for touch and keyboard),
// hides 300 ms after the pointer leaves.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { POPUP_CLOSE_DELAY_MS } from '@lq/contracts';
import { IconUser } from '../../components/icons';
import { logout } from '../../lib/session';
import { InviteCopyButton } from '../../components/InviteCopyButton';
import { useUserInfo } from './useUserInfo';

// Forms (zod, react-hook-form) stay out of the first-load bundle.
const ChangePayPwdDialog = lazy(() => import('./ChangePayPwdDialog').then((m) => ({ default: m.ChangePayPwdDialog })));

export function UserMenu() {
  const { t } = useTranslation();
  const { user } = useUserInfo();
  const [open, setOpen] = useState(false);
  const [payPwdOpen, setPayPwdOpen] = useState(false);
  const hideTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const root = useRef<HTMLDivElement>(null);

  const show = () => {
    clearTimeout(hideTimer.current);
    setOpen(true);
  };
  const hideLater = () => {
    clearTimeout(hideTimer.current);
    hideTimer.current = setTimeout(() => setOpen(false), POPUP_CLOSE_DELAY_MS);
  };
  useEffect(() => () => clearTimeout(hideTimer.current), []);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    const onDown = (e: MouseEvent) => !root.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onDown);
    };
  }, [open]);

  if (!user) {
    return (
      <Link className="btn btn-primary" to="/pages/login/login" data-testid="topbar-login">
        {t('account.loginEntry')}
      </Link>
    );
  }
  const name = user.nickname || user.userName || user.mail;
  return (
    <div ref={root} className="usermenu" onMouseEnter={show} onMouseLeave={hideLater}>
      <button type="button" className="chip" aria-haspopup="true" aria-expanded={open} aria-controls="user-menu-panel" onClick={() => (open ? setOpen(false) : show())} data-testid="user-menu-trigger">
        <IconUser width={20} height={20} />
        <span style={{ maxWidth: 140, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{name}</span>
      </button>
      {open ? (
        <div id="user-menu-panel" className="usermenu-panel" role="region" aria-label={t('account.userMenu')} data-testid="user-menu">
          <p className="who" data-testid="user-menu-name">{name}</p>
          <p className="meta" data-testid="user-menu-mail">{user.mail}</p>
          <p className="meta">
            {t('account.inviteCode')}: <span className="num" data-testid="user-menu-invite-code">{user.userCode}</span>
          </p>
          <InviteCopyButton code={user.userCode} testId="user-menu-copy-invite" />
          <Link className="menu-item" to="/pages/personal/personal" onClick={() => setOpen(false)} data-testid="user-menu-personal">
            {t('account.personalSettings')}
          </Link>
          <button type="button" className="menu-item" onClick={() => (setOpen(false), setPayPwdOpen(true))} data-testid="user-menu-paypwd">
            {t('account.changePayPwd')}
          </button>
          <button type="button" className="menu-item" onClick={() => void logout()} data-testid="user-menu-logout">
            {t('auth.logout')}
          </button>
        </div>
      ) : null}
      {payPwdOpen ? (
        <Suspense fallback={null}>
          <ChangePayPwdDialog onClose={() => setPayPwdOpen(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
