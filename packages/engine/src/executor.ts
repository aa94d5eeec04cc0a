// The shared intent executor: turns a strategy's intents into Broker calls. Used unchanged by the
// backtest kernel, paper trading and live robots.
import type { Broker } from './ports';
import type { Intent } from './types';

/**
 * Executes and clears `out`. Returns the halt reason when the strategy asked to stop, else null.
 * Intents after a halt in the same batch are still executed (a strategy halts after closing out).
 */
export function executeIntents(out: Intent[], broker: Broker): string | null {
  let halt: string | null = null;
  // Index loop: executing an intent can trigger fills whose callbacks push more intents onto a
  // different array; `out` itself is only appended to by the caller.
  for (let i = 0; i < out.length; i++) {
    const intent = out[i];
    switch (intent.kind) {
      case 'open':
        broker.submitOpen(intent);
        break;
      case 'close':
        broker.submitClose(intent);
        break;
      case 'amend':
        broker.amend(intent);
        break;
      case 'cancel':
        broker.cancel(intent.tag);
        break;
      case 'closeAll':
        broker.closeAll(intent.reason);
        break;
      case 'halt':
        halt = intent.reason;
        break;
    }
  }
  // pop(), not `length = 0`: setting an array's length is a call into the runtime.
  while (out.length > 0) out.pop();
  return halt;
}
