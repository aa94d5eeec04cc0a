// Pool thread entry: materializes a dataset once (instrument, shared candle views) and runs candidates.
import { workerData } from 'piscina';
import { getInstrument, type Instrument } from '@lq/engine';
import { runCandidate, type CandidateResult } from './recommend-run';
import type { PoolTask, PoolWorkerData, SharedDataset } from './pool';

interface Prepared {
  readonly dataset: SharedDataset;
  readonly instrument: Instrument;
}

const prepared = new Map<string, Prepared>();

function prepare(dataset: SharedDataset): Prepared {
  const p = { dataset, instrument: getInstrument(dataset.symbol, dataset.venue) };
  prepared.set(dataset.id, p);
  // Keep the start-up dataset and the latest other one, so alternating jobs do not thrash.
  if (prepared.size > 2) prepared.delete([...prepared.keys()].find((id) => id !== bound?.id)!);
  return p;
}

const bound = (workerData as PoolWorkerData | undefined)?.dataset ?? null;
if (bound) prepare(bound);

export default function runTask(task: PoolTask): CandidateResult {
  const p = prepared.get(task.datasetId) ?? (task.dataset ? prepare(task.dataset) : null);
  if (!p) throw new Error(`pool: unknown dataset ${task.datasetId}`);
  return runCandidate(p.dataset.candles, p.instrument, p.dataset.ai, task.candidate);
}
