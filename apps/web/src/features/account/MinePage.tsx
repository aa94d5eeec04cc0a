import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { graphemes, isVipLevel } from '@lq/contracts';
import { IconChevron } from '../../components/icons';
import { logout } from '../../lib/session';
import { ChangePayPwdDialog } from './ChangePayPwdDialog';
import { GuestPrompt } from './GuestPrompt';
import { InviteCopyButton } from '../../components/InviteCopyButton';
import { displayName, useUserInfo } from './useUserInfo';

function Row({ to, label, testId, value }: { to: string; label: string; testId: string; value?: ReactNode }) {
  return (
    <li>
      <Link className="list-row" to={to} data-testid={testId}>
        {label}
        {value ? <span className="value">{value}</span> : <span className="value" />}
        <IconChevron className="chev" />
      </Link>
    </li>
  );
}

/** Tab 3. `settings` holds rows composed by the app (language, market); `noticeCount` the unread badge. */
export default function MinePage({ settings, noticeCount }: { settings?: ReactNode; noticeCount?: ReactNode }) {
  const { t } = useTranslation();
  const { user } = useUserInfo();
  const [payPwdOpen, setPayPwdOpen] = useState(false);
  if (!user) return <GuestPrompt />;
  const vip = isVipLevel(user.userLevel);
  return (
    <div className="stack" style={{ maxWidth: 640, margin: '0 auto', width: '100%' }}>
      <section className="card" aria-label={t('account.profile')} data-testid="mine-profile">
        <div className="profile">
          <div className="avatar" aria-hidden="true">{(graphemes(displayName(user))[0] ?? '').toUpperCase()}</div>
          <div style={{ minWidth: 0, flex: 1 }}>
            <p className="name">
              <span data-testid="mine-name">{displayName(user)}</span>{' '}
              {vip ? <span className="badge" data-testid="vip-badge">{user.userLevel}</span> : <span className="badge muted" data-testid="vip-badge">{t('account.regular')}</span>}
            </p>
            <p className="meta" data-testid="mine-mail">{user.mail}</p>
            <p className="meta">
              {t('account.inviteCode')}: <span className="num" data-testid="mine-invite-code">{user.userCode}</span>
            </p>
          </div>
        </div>
        <div style={{ marginTop: 12 }}>
          <InviteCopyButton code={user.userCode} testId="mine-copy-invite" />
        </div>
      </section>

      <div>
        <h2 className="section-title">{t('account.services')}</h2>
        <ul className="list">
          <Row to="/pages/wallet/wallet" label={t('account.wallet')} testId="mine-wallet" />
          <Row to="/pages/equity/index" label={t('account.equity')} testId="mine-equity" />
          <Row to="/pages/apikey/apiList" label={t('account.apiManagement')} testId="mine-api" />
          <Row to="/pages/group/group" label={t('account.team')} testId="mine-team" />
          <Row to="/pages/index/rankingList/rankingList" label={t('account.ranking')} testId="mine-ranking" />
          <Row to="/pages/notice/notice" label={t('account.notice')} testId="mine-notice" value={noticeCount} />
          <Row to="/pages/tools/positionCalc" label={t('page.positionCalc')} testId="mine-position-calc" />
          <Row to="/pages/tools/riskCalc" label={t('page.riskCalc')} testId="mine-risk-calc" />
        </ul>
      </div>

      <div>
        <h2 className="section-title">{t('account.settings')}</h2>
        <ul className="list">
          <Row to="/pages/personal/personal" label={t('account.personalSettings')} testId="mine-personal" value={user.nickname ?? t('common.notSet')} />
          <Row to="/pages/security/security" label={t('account.security')} testId="mine-security" />
          <Row to="/pages/changePwd/changePwd" label={t('account.changePassword')} testId="mine-change-pwd" />
          <li>
            <button type="button" className="list-row" onClick={() => setPayPwdOpen(true)} data-testid="mine-paypwd" data-set={user.hasPaidPwd}>
              {user.hasPaidPwd ? t('account.changePayPwd') : t('account.setPayPwd')}
              <span className="value" />
              <IconChevron className="chev" />
            </button>
          </li>
          {settings}
          <Row to="/pages/aboutus/aboutus" label={t('account.aboutUs')} testId="mine-about" />
        </ul>
      </div>

      <button type="button" className="btn btn-danger btn-block" onClick={() => void logout()} data-testid="mine-logout">
        {t('auth.logout')}
      </button>
      {payPwdOpen ? <ChangePayPwdDialog onClose={() => setPayPwdOpen(false)} /> : null}
    </div>
  );
}
