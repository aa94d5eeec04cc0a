import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { DESKTOP_BREAKPOINT_PX } from '@lq/contracts';
import { App } from './app/App';
import { guardBootLocation } from './app/Guard';
import { preloadPage } from './app/pages';
import { preloadDesktopChrome } from './app/Layout';
import { initI18n } from './i18n';
import { splitHash } from './lib/router';
import { appStore } from './lib/store';
import './styles.css';

/**
 * Boot runs as separate tasks (the modules' evaluation; the guard and the page's preload; the
 * language's set-up), each short enough for a phone to paint and answer a tap in between: as one
 * task they were the longest of the first screen after the browser's own.
 */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

document.documentElement.dataset.theme = appStore.getState().theme;
const hasToken = !!appStore.getState().token;
await nextTask();
guardBootLocation(hasToken);
preloadPage(splitHash(window.location.hash).path, hasToken);
if (window.matchMedia(`(min-width: ${DESKTOP_BREAKPOINT_PX}px)`).matches) preloadDesktopChrome();
await nextTask();
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

// The installable app (service worker, offline view, update prompt) loads after the page, once the
// main thread is idle: `load` alone fired in the middle of the first render, and the chunk's
// preload links then lengthened one of its tasks.
if (import.meta.env.PROD) {
  const startPwa = () => void import('./pwa').then((m) => m.startPwa());
  const whenIdle = () => ('requestIdleCallback' in window ? requestIdleCallback(startPwa, { timeout: 3000 }) : setTimeout(startPwa, 1000));
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
