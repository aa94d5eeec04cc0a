import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';

export function GuestPrompt() {
  const { t } = useTranslation();
  return (
    <div className="center-view" data-testid="guest-prompt">
      <h2>{t('account.guest')}</h2>
      <p>{t('account.guestHint')}</p>
      <Link className="btn btn-primary" to="/pages/login/login">
        {t('account.loginEntry')}
      </Link>
    </div>
  );
}
