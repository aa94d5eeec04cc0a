import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { entryIndex, useNavigate } from '../lib/router';
import { IconBack } from './icons';

export function Spinner({ label }: { label: string }) {
  return (
    <div className="center-view" role="status" data-testid="page-loading">
      <div className="spinner" aria-hidden="true" />
      <p>{label}</p>
    </div>
  );
}

export function ErrorView({ message, onRetry }: { message: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="center-view" role="alert" data-testid="page-error">
      <h2>{message}</h2>
      <button type="button" className="btn btn-primary" onClick={onRetry} data-testid="page-retry">
        {t('common.retry')}
      </button>
    </div>
  );
}

/** The black navigation bar of spec §2: back button, white title. */
export function NavBar({ title, back = true, right }: { title: string; back?: boolean; right?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Back within the app only: the router numbers this tab's entries (lib/router entryIndex, kept by
  // a replace). At the first one — a link opened in a new tab, where history.length already counts
  // about:blank — back would leave the app, so it goes home instead.
  const goBack = () => {
    if (entryIndex() > 0) navigate(-1);
    else navigate('/', { replace: true });
  };
  return (
    <header className="navbar">
      {back ? (
        <button type="button" className="icon-btn" aria-label={t('nav.back')} onClick={goBack} data-testid="nav-back">
          <IconBack />
        </button>
      ) : right ? null : (
        <span className="spacer" />
      )}
      <h1 data-testid="page-title">{title}</h1>
      {right ?? <span className="spacer" />}
    </header>
  );
}
