// The drift monitor (issue 33): each robot's live trades held against a backtest over the same
// candles. Slice 1: the shadow backtest, kept up to each robot incrementally (service.ts) and
// checked from the shell (`npm run ops -- drift:check`).
export { ShadowMonitor, robotBars, type ShadowCheck } from './service';
export { ShadowBacktest, specKey, type ShadowSpec } from './shadow';
export { DRIFT_OPS } from './ops';
export { driftPlugin } from './plugin';
export { driftReportOf, matchingOf } from './report';
export { checkAllDrift, checkDrift, DRIFT_QUEUE } from './jobs';
export { evaluateDriftAlert } from './alerts';
export { FundingRecorder } from './funding';
