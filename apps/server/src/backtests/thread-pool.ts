// Runs backtest / recommendation tasks on worker threads so the API's event loop stays free.
// Candle columns are transferred (moved, not copied) to the thread. One warm idle thread is kept
// so a backtest does not pay the thread's start-up (module loading) each time. Cancel = terminate.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Candles } from '@lq/engine';
import type { ProgressStep, Task } from './compute';
import type { ThreadMessage } from './thread';

/** The task was cancelled (its thread terminated). */
export class TaskCancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'TaskCancelled';
  }
}

/** The computation rejected the input (`key` is a message key, `field` the parameter). */
export class TaskFailed extends Error {
  constructor(
    message: string,
    readonly key: string | null,
    readonly field: string | null,
  ) {
    super(message);
    this.name = 'TaskFailed';
  }
}

const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/index\.cjs$/, 'index.mjs')).href;
const THREAD_URL = new URL('./thread.ts', import.meta.url);

/** Own, transferable copies of the candle columns (each column its own ArrayBuffer). */
export function transferableCandles(c: Candles): { candles: Candles; transfer: ArrayBuffer[] } {
  const n = c.length;
  const col = (a: Float64Array) => {
    const out = new Float64Array(n);
    out.set(a.subarray(0, n));
    return out;
  };
  const candles: Candles = {
    length: n,
    intervalMs: c.intervalMs,
    time: col(c.time),
    open: col(c.open),
    high: col(c.high),
    low: col(c.low),
    close: col(c.close),
    volume: col(c.volume),
  };
  const transfer = [candles.time, candles.open, candles.high, candles.low, candles.close, candles.volume].map(
    (a) => a.buffer as ArrayBuffer,
  );
  return { candles, transfer };
}

export class ThreadRunner {
  private idle: Worker[] = [];
  private readonly busy = new Set<Worker>();
  private closed = false;

  constructor(private readonly maxIdle = 1) {}

  private spawn(): Worker {
    // The thread registers tsx's loader, then imports the TypeScript entry (as `npm start` runs it).
    const boot = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(THREAD_URL.href)}); })`;
    const worker = new Worker(boot, { eval: true });
    worker.unref();
    // An idle thread that dies is simply dropped.
    worker.once('exit', () => {
      this.idle = this.idle.filter((w) => w !== worker);
    });
    worker.on('error', () => undefined);
    return worker;
  }

  /** Starts one idle thread in advance (module loading happens now, not on the first backtest). */
  warm(): void {
    if (!this.closed && this.idle.length === 0) this.idle.push(this.spawn());
  }

  run<T>(task: Task, transfer: ArrayBuffer[], onProgress: (percent: number, step?: ProgressStep) => void, signal?: AbortSignal): Promise<T> {
    if (this.closed) return Promise.reject(new TaskCancelled());
    if (signal?.aborted) return Promise.reject(new TaskCancelled());
    const worker = this.idle.pop() ?? this.spawn();
    this.busy.add(worker);
    worker.ref();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (reuse: boolean) => {
        settled = true;
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        signal?.removeEventListener('abort', onAbort);
        this.busy.delete(worker);
        worker.unref();
        if (reuse && !this.closed && this.idle.length < this.maxIdle) this.idle.push(worker);
        else void worker.terminate();
      };
      const onMessage = (m: ThreadMessage) => {
        if (settled) return;
        if (m.type === 'progress') onProgress(m.percent, m.step);
        else if (m.type === 'done') {
          finish(true);
          resolve(m.result as T);
        } else {
          finish(true);
          reject(new TaskFailed(m.message, m.key, m.field));
        }
      };
      const onError = (err: Error) => {
        if (settled) return;
        finish(false);
        reject(err);
      };
      const onExit = (code: number) => {
        if (settled) return;
        finish(false);
        reject(this.closed ? new TaskCancelled() : new Error(`worker thread exited with code ${code}`));
      };
      const onAbort = () => {
        if (settled) return;
        finish(false);
        reject(new TaskCancelled());
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      worker.postMessage(task, transfer);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle, ...this.busy];
    this.idle = [];
    await Promise.all(all.map((w) => w.terminate()));
  }
}
