// Load of the benches (`npm run bench`): `op(i)` for i < n with `clients` in flight, as that many
// concurrent requests would; the rate and the latencies' p50, p99 and max.
import { performance } from 'node:perf_hooks';

export interface Load {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

const round2 = (x: number) => Math.round(x * 100) / 100;
const percentile = (sorted: number[], q: number) => round2(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0);

export async function load(n: number, clients: number, op: (i: number) => Promise<unknown>): Promise<Load> {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < n; i = next++) {
        const t0 = performance.now();
        await op(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: Math.round(n / seconds), p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), maxMs: percentile(latencies, 1) };
}
