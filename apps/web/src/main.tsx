import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadPage } from './app/pages';
import { initI18n } from './i18n';
import { appStore } from './lib/store';
import './styles.css';

document.documentElement.dataset.theme = appStore.getState().theme;
preloadPage(window.location.hash.replace(/^#/, '').split('?')[0] || '/', !!appStore.getState().token);
await initI18n(appStore.getState().locale);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
