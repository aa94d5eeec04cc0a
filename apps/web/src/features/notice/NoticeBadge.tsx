// The unread count (notices and notifications) as a badge: `NoticeBell` for the desktop top bar (a bell linking to the notice
// page), `NoticeCount` for the notice row on Mine. Nothing shows for guests or at zero.
import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { countText, NOTICE_PATH, useUnread } from './api';
import './notice.css';

export function NoticeCount() {
  const { t } = useTranslation('notice');
  const unread = useUnread().total;
  if (unread === 0) return null;
  return (
    <span className="nt-count" aria-label={t('unreadCount', { count: unread })} data-testid="notice-count">
      {countText(unread)}
    </span>
  );
}

export function NoticeBell() {
  const { t } = useTranslation('notice');
  const { t: tc } = useTranslation();
  const counts = useUnread();
  const unread = counts.total;
  return (
    <Link className="nt-bell" to={counts.notifications > 0 ? `${NOTICE_PATH}?tab=notifications` : NOTICE_PATH} aria-label={unread > 0 ? `${tc('page.notice')}: ${t('unreadCount', { count: unread })}` : tc('page.notice')} data-testid="topbar-notice">
      <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      {unread > 0 ? (
        <span className="nt-count" data-testid="topbar-notice-count">
          {countText(unread)}
        </span>
      ) : null}
    </Link>
  );
}
