import { useTranslation } from 'react-i18next';
import { Link } from '../../lib/router';
import { APP_VERSION, APP_VERSION_CODE } from '@lq/contracts';
import { IconChevron, Logo } from '../../components/icons';

const AGREEMENTS = [
  ['/pages/agreement/privacy/privacy', 'page.privacy'],
  ['/pages/agreement/license/license', 'page.license'],
  ['/pages/agreement/autoSubscribe/index', 'page.autoSubscribe'],
  ['/pages/agreement/monthEquity/monthEquity', 'page.monthEquity'],
] as const;

export default function AboutPage() {
  const { t } = useTranslation();
  return (
    <div className="stack" style={{ maxWidth: 640, margin: '0 auto', width: '100%' }}>
      <div className="center-view" style={{ minHeight: 0, paddingBottom: 0 }}>
        <Logo width={72} height={72} />
        <h2>{t('app.name')}</h2>
        <p className="num" data-testid="about-version">
          {t('about.version', { version: APP_VERSION })} · {t('about.versionCode', { code: APP_VERSION_CODE })}
        </p>
      </div>
      <p style={{ color: 'var(--text-2)', margin: 0 }}>{t('about.intro')}</p>
      <p style={{ color: 'var(--text-2)', margin: 0 }}>{t('about.risk')}</p>
      <div>
        <h3 className="section-title">{t('about.contact')}</h3>
        <p className="card" style={{ margin: 0 }}>{t('about.contactBody')}</p>
      </div>
      <div>
        <h3 className="section-title">{t('about.agreements')}</h3>
        <ul className="list">
          {AGREEMENTS.map(([to, key]) => (
            <li key={to}>
              <Link className="list-row" to={to}>
                {t(key)}
                <span className="value" />
                <IconChevron className="chev" />
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
