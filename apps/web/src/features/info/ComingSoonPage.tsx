import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';

/** Placeholder for routes whose features arrive in later releases. */
export default function ComingSoonPage({ titleKey, params }: { titleKey: string; params?: Record<string, string> }) {
  const { t } = useTranslation();
  const page = t(titleKey, params);
  return (
    <div className="center-view" data-testid="coming-soon" data-page={titleKey}>
      <h2>{t('common.comingSoon')}</h2>
      <p>{t('common.comingSoonBody', { page })}</p>
      <Link className="btn btn-secondary" to="/pages/index/mine">
        {t('nav.mine')}
      </Link>
    </div>
  );
}
