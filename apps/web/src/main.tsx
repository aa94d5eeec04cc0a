import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { DESKTOP_BREAKPOINT_PX } from '@lq/contracts';
import { App } from './app/App';
import { preloadPage } from './app/pages';
import { preloadDesktopChrome } from './app/Layout';
import { initI18n } from './i18n';
import { appStore } from './lib/store';
import './styles.css';

document.documentElement.dataset.theme = appStore.getState().theme;
preloadPage(window.location.hash.replace(/^#/, '').split('?')[0] || '/', !!appStore.getState().token);
if (window.matchMedia(`(min-width: ${DESKTOP_BREAKPOINT_PX}px)`).matches) preloadDesktopChrome();
await initI18n(appStore.getState().locale);

// A transition: React renders the app in slices and yields to the browser between them, instead of
// one long task that keeps a phone from responding (total blocking time) while the shell mounts.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);

// The installable app (service worker, offline view, update prompt) loads after the page: never
// part of the first screen.
if (import.meta.env.PROD) {
  const startPwa = () => void import('./pwa').then((m) => m.startPwa());
  if (document.readyState === 'complete') startPwa();
  else window.addEventListener('load', startPwa, { once: true });
}
