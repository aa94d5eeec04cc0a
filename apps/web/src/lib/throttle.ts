import { THROTTLE_DEFAULT_MS } from '@lq/contracts';

/** Leading-edge throttle: runs at most once per `ms`; later calls inside the window are dropped. */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms = THROTTLE_DEFAULT_MS, now: () => number = Date.now) {
  let last = -Infinity;
  return (...args: A): void => {
    const t = now();
    if (t - last < ms) return;
    last = t;
    fn(...args);
  };
}
