import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../lib/router';
import { Logo } from '../components/icons';
import { useAppStore } from '../lib/store';

// The user menu (with TanStack Query's observer, about 11 KB gzip) exists only in the desktop top
// bar: phones never download it. Desktops start loading it at boot (main.tsx), beside the page.
const loadUserMenu = () => import('../features/account/UserMenu');
const UserMenu = lazy(() => loadUserMenu().then((m) => ({ default: m.UserMenu })));
export const preloadTopBar = () => void loadUserMenu().catch(() => undefined);
// The notice bell (unread count) comes in the same way, after the page.
const NoticeBell = lazy(() => import('../features/notice/NoticeBadge').then((m) => ({ default: m.NoticeBell })));

/**
 * ≥ 768 px: brand, market switcher, language picker, user menu (spec §2). The switcher and the
 * picker come from the Layout, which has them for phones too: imported here as well, they were
 * split out of the entry into a chunk of their own that the first screen preloads (+1.8 KB gzip).
 */
export function TopBar({ market, language }: { market: ReactNode; language: ReactNode }) {
  const { t } = useTranslation();
  const signedIn = useAppStore((s) => Boolean(s.token));
  return (
    <header className="topbar" data-testid="top-bar">
      <Link className="brand" to="/">
        <Logo />
        <span>{t('app.name')}</span>
      </Link>
      {market}
      {language}
      {signedIn ? (
        <Suspense fallback={null}>
          <NoticeBell />
        </Suspense>
      ) : null}
      <Suspense fallback={<span className="usermenu" />}>
        <UserMenu />
      </Suspense>
    </header>
  );
}
