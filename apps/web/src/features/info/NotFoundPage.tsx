import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';

export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="center-view" data-testid="not-found">
      <h2>{t('page.notFound')}</h2>
      <p>{t('common.notFoundBody')}</p>
      <Link className="btn btn-primary" to="/">
        {t('common.goHome')}
      </Link>
    </div>
  );
}
