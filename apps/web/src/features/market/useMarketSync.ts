import { useEffect } from 'react';
import { on } from '../../lib/events';
import { useAppStore } from '../../lib/store';
import { refreshDataSources } from './dataSources';

/** Mounted once by the app: keeps the list fresh and the accent colour on <html>. */
export function useMarketSync(): void {
  const theme = useAppStore((s) => s.theme);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  useEffect(() => {
    void refreshDataSources();
    const offLogin = on('login', () => void refreshDataSources());
    const offLocale = on('locale-changed', () => void refreshDataSources());
    return () => {
      offLogin();
      offLocale();
    };
  }, []);
}
