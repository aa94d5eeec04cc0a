import type { ReactNode } from 'react';
import { Navigate, useLocation } from '../lib/router';
import { useAppStore } from '../lib/store';
import { LOGIN_PATH } from './routeTable';

/** Spec §4: guarded pages without a stored token go to the login page. */
export function Guard({ guarded, children }: { guarded: boolean; children: ReactNode }) {
  const token = useAppStore((s) => s.token);
  const location = useLocation();
  if (guarded && !token) return <Navigate to={LOGIN_PATH} replace state={{ from: location.pathname + location.search }} />;
  return children;
}
