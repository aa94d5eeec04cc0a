// Worker-thread entry: runs one task at a time (backtest or recommendation) off the main thread and
// reports progress. The main thread terminates the thread to cancel. See thread-pool.ts.
import { parentPort } from 'node:worker_threads';
import { ComputeError, computeBacktest, computeRecommend, type ProgressStep, type Task } from './compute';

export type ThreadMessage =
  | { type: 'progress'; percent: number; step?: ProgressStep }
  | { type: 'done'; result: unknown }
  | { type: 'error'; message: string; key: string | null; field: string | null };

const port = parentPort;
if (port) {
  port.on('message', (task: Task) => {
    let last = -1;
    let lastAt = 0;
    // Each new percent, and the candles done at most every 250 ms between.
    const progress = (p: number, step?: ProgressStep) => {
      const percent = Math.max(0, Math.min(100, Math.floor(p)));
      const now = Date.now();
      if (percent !== last || (step && now - lastAt >= 250)) {
        last = percent;
        lastAt = now;
        port.postMessage({ type: 'progress', percent, step } satisfies ThreadMessage);
      }
    };
    const fail = (e: unknown) => {
      const err = e as Error;
      port.postMessage({
        type: 'error',
        message: err?.message ?? String(e),
        key: e instanceof ComputeError ? e.key : null,
        field: e instanceof ComputeError ? (e.field ?? null) : null,
      } satisfies ThreadMessage);
    };
    try {
      if (task.kind === 'backtest') {
        port.postMessage({ type: 'done', result: computeBacktest(task, progress) } satisfies ThreadMessage);
      } else {
        computeRecommend(task, progress).then(
          (result) => port.postMessage({ type: 'done', result } satisfies ThreadMessage),
          fail,
        );
      }
    } catch (e) {
      fail(e);
    }
  });
}
