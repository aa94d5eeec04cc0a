// `npm run soak -- --kills 500 [--latency 150] [--seed 42]`: the crash harness of the CI crash test,
// longer. Prints the result as JSON; exits 1 when an invariant is broken.
import { runCrashTest } from './crash-harness';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const r = await runCrashTest({ kills: arg('kills', 500), latencyMs: arg('latency', 150), seed: arg('seed', Date.now() % 100_000), log: (l) => console.error(l) });
console.log(JSON.stringify(r, null, 2));
const ok =
  r.duplicates.length === 0 &&
  r.unjournalled.length === 0 &&
  r.mismatched.length === 0 &&
  Math.abs(r.ledgerCoins - r.venueCoins) < 1e-9 &&
  r.finalStatus === 'stopped' &&
  r.finalOpenOrders === 0 &&
  r.finalVenueCoins === 0;
process.exit(ok ? 0 : 1);
