import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { Logo } from '../components/icons';
import { UserMenu } from '../features/account';
import { LanguagePicker } from '../features/locale';
import { MarketSwitcher } from '../features/market';

/** ≥ 768 px: brand, market switcher, language picker, user menu (spec §2). */
export function TopBar({ showMarket }: { showMarket: boolean }) {
  const { t } = useTranslation();
  return (
    <header className="topbar" data-testid="top-bar">
      <Link className="brand" to="/">
        <Logo />
        <span>{t('app.name')}</span>
      </Link>
      {showMarket ? <MarketSwitcher /> : null}
      <LanguagePicker />
      <UserMenu />
    </header>
  );
}
