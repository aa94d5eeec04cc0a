// pages/themeTest/themeTest: the theme tokens of both markets side by side (a small design page).
import { useBacktestTranslation } from '../../i18n';
import { useFormatters } from './ui';

const SURFACES = ['--bg', '--surface', '--surface-2', '--border'];
const TEXTS = ['--text', '--text-2'];

function Panel({ theme }: { theme: 'forex' | 'crypto' }) {
  const { t } = useBacktestTranslation();
  const fmt = useFormatters();
  return (
    <section className="card bt-theme" data-theme={theme} data-testid={`theme-${theme}`}>
      <h2 className="bt-h2">{t(`theme.${theme}`)}</h2>
      <h3 className="section-title">{t('theme.accent')}</h3>
      <div className="bt-swatches">
        {['--accent', '--accent-strong', '--on-accent'].map((v) => (
          <figure key={v} className="bt-swatch"><span style={{ background: `var(${v})` }} /><figcaption>{v}</figcaption></figure>
        ))}
      </div>
      <h3 className="section-title">{t('theme.surfaces')}</h3>
      <div className="bt-swatches">
        {SURFACES.map((v) => (
          <figure key={v} className="bt-swatch"><span style={{ background: `var(${v})` }} /><figcaption>{v}</figcaption></figure>
        ))}
      </div>
      <h3 className="section-title">{t('theme.text')}</h3>
      <div className="bt-swatches">
        {TEXTS.map((v) => (
          <figure key={v} className="bt-swatch"><span style={{ background: `var(${v})` }} /><figcaption>{v}</figcaption></figure>
        ))}
      </div>
      <div className="bt-actions">
        <button type="button" className="btn btn-primary">{t('theme.primary')}</button>
        <button type="button" className="btn btn-secondary">{t('theme.secondary')}</button>
        <button type="button" className="btn btn-danger">{t('theme.danger')}</button>
      </div>
      <p className="num bt-theme-figs">
        {t('theme.up')}: <b style={{ color: fmt.colors.up }}>▲ {fmt.percent(0.1234)}</b> · {t('theme.down')}: <b style={{ color: fmt.colors.down }}>▼ {fmt.percent(-0.0567)}</b> · {t('theme.sample')}: {fmt.money(123456789)}
      </p>
    </section>
  );
}

export default function ThemeTestPage() {
  const { t } = useBacktestTranslation();
  return (
    <div className="bt-page" data-testid="theme-test">
      <p className="bt-lead">{t('theme.convention')}</p>
      <div className="bt-detail-grid">
        <Panel theme="forex" />
        <Panel theme="crypto" />
      </div>
    </div>
  );
}
