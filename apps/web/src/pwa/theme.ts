// The browser's theme colour (the status bar of the installed app) follows the chosen market, as
// the page's accent does (html[data-theme], set by features/market).
const THEME_COLORS: Record<string, string> = { forex: '#14B8A6', crypto: '#8B5CF6' };

export function followMarketTheme(): void {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (!meta) return;
  const apply = () => {
    meta.content = THEME_COLORS[document.documentElement.dataset.theme ?? ''] ?? THEME_COLORS.forex;
  };
  apply();
  new MutationObserver(apply).observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
}
