import { useSyncExternalStore } from 'react';
import { DESKTOP_BREAKPOINT_PX } from '@lq/contracts';

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Top bar and left menu from 768 px; bottom tab bar below (spec §2). */
export const useIsDesktop = () => useMediaQuery(`(min-width: ${DESKTOP_BREAKPOINT_PX}px)`);
