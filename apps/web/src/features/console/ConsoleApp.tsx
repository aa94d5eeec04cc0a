// The operator console (`#/console/...`, issue 32): its own part of the web app, loaded only when a
// console path is opened, outside the users' frame, with its own session (api.ts). Desktop first:
// a top bar with the sections; tables scroll inside their box on a phone.
import { useEffect, type ReactNode } from 'react';
import { getI18n, useTranslation } from 'react-i18next';
import { Link, useLocation } from '../../lib/router';
import { consoleApi, endOperatorSession, useOperatorSession } from './api';
import { ApprovalsPage } from './ApprovalsPage';
import { AuditPage } from './AuditPage';
import { DashboardPage } from './DashboardPage';
import { DataPage } from './DataPage';
import { DepositsPage } from './DepositsPage';
import { NoticesPage } from './NoticesPage';
import { SettingsPage } from './SettingsPage';
import { SecondFactorStep, SignInStep } from './SignIn';
import { UsersPage } from './UsersPage';
import { WithdrawalsPage } from './WithdrawalsPage';
import './console.css';

// The `console` namespace in every language, inside this chunk and added when it loads: the users'
// app never lists it (its first screen stays smaller), and a language switched here needs no fetch.
const TEXTS = import.meta.glob<Record<string, unknown>>('../../i18n/locales/console.*.json', { eager: true, import: 'default' });
for (const [file, texts] of Object.entries(TEXTS)) {
  const locale = /console\.([^/]+)\.json$/.exec(file)?.[1];
  if (locale) getI18n().addResourceBundle(locale, 'console', texts, true, true);
}

const SECTIONS = [
  { path: '/console', key: 'dashboard', Page: DashboardPage },
  { path: '/console/users', key: 'users', Page: UsersPage },
  { path: '/console/withdrawals', key: 'withdrawals', Page: WithdrawalsPage },
  { path: '/console/deposits', key: 'deposits', Page: DepositsPage },
  { path: '/console/approvals', key: 'approvals', Page: ApprovalsPage },
  { path: '/console/notices', key: 'notices', Page: NoticesPage },
  { path: '/console/settings', key: 'business', Page: SettingsPage },
  { path: '/console/data', key: 'data', Page: DataPage },
  { path: '/console/audit', key: 'audit', Page: AuditPage },
] as const;

const sectionOf = (pathname: string) => SECTIONS.find((s) => s.path === (pathname.toLowerCase().replace(/\/+$/, '') || '/'));

export default function ConsoleApp({ language }: { language?: ReactNode }) {
  const { t } = useTranslation('console');
  const session = useOperatorSession();
  const { pathname } = useLocation();
  const section = sectionOf(pathname);
  const title = !session ? t('signIn.title') : !isFresh(session.secondFactorUntil) ? t('secondFactor.title') : section ? t(`nav.${section.key}`) : t('notFound');

  useEffect(() => {
    document.title = `${title} · ${t('name')}`;
  }, [title, t]);

  let body: ReactNode;
  if (!session) body = <SignInStep />;
  else if (!isFresh(session.secondFactorUntil)) body = <SecondFactorStep mail={session.mail} />;
  else if (!section) body = <p className="cs-empty" data-testid="console-not-found">{t('notFound')}</p>;
  else body = <section.Page />;

  return (
    <div className="cs-shell" data-testid="console">
      <header className="cs-top">
        <strong className="cs-brand">{t('name')}</strong>
        {session && isFresh(session.secondFactorUntil) ? (
          <nav className="cs-nav" aria-label={t('nav.label')}>
            {SECTIONS.map((s) => (
              <Link key={s.key} to={s.path} aria-current={section?.key === s.key ? 'page' : undefined} data-testid={`console-nav-${s.key}`}>
                {t(`nav.${s.key}`)}
              </Link>
            ))}
          </nav>
        ) : (
          <span className="cs-nav" />
        )}
        <div className="cs-who">
          {language}
          {session ? (
            <>
              <span className="cs-mail" data-testid="console-operator">{session.mail}</span>
              <button type="button" className="btn btn-secondary cs-small" onClick={() => void signOut()} data-testid="console-logout">
                {t('signOut')}
              </button>
            </>
          ) : null}
        </div>
      </header>
      <main className="cs-main">
        <h1 className="cs-title" data-testid="console-title">{title}</h1>
        {body}
      </main>
    </div>
  );
}

const isFresh = (until: number | null) => until !== null && until > Date.now();

async function signOut() {
  await consoleApi.post('logout', {}, { silent: true }).catch(() => undefined);
  endOperatorSession();
}
