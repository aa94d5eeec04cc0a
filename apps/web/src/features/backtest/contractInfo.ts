// Contract info of spec §3/§7: instId → ctVal, ctMult, minSz, cached one day per symbol in local
// storage (instId, ctVal, ctMult, minSz, updated flag, timestamp). A failure is logged and null
// returned; a stale entry is still better than nothing when the refresh fails.
import { CONTRACT_CACHE_MS } from '@lq/contracts';
import type { KeyValueStorage } from '../../lib/storage';

export interface ContractInfo {
  instId: string;
  ctVal: number;
  ctMult: number;
  minSz: number;
  /** True when this entry came from the server (not the cache) on the call that returned it. */
  updated: boolean;
  /** When it was fetched, ms. */
  timestamp: number;
}

export const contractCacheKey = (instId: string) => `contractInfo:${instId}`;

function read(storage: KeyValueStorage, instId: string): ContractInfo | null {
  try {
    const raw = storage.getItem(contractCacheKey(instId));
    if (!raw) return null;
    const v = JSON.parse(raw) as Partial<ContractInfo>;
    if (typeof v.ctVal !== 'number' || typeof v.ctMult !== 'number' || typeof v.minSz !== 'number' || typeof v.timestamp !== 'number') return null;
    return { instId, ctVal: v.ctVal, ctMult: v.ctMult, minSz: v.minSz, updated: false, timestamp: v.timestamp };
  } catch {
    return null;
  }
}

export type ContractLoader = (instId: string) => Promise<{ ctVal: number; ctMult: number; minSz: number } | null>;

export async function getContractInfo(
  instId: string,
  load: ContractLoader,
  storage: KeyValueStorage,
  now: () => number = Date.now,
  log: (message: string, error?: unknown) => void = (m, e) => console.warn(m, e),
): Promise<ContractInfo | null> {
  const cached = read(storage, instId);
  if (cached && now() - cached.timestamp < CONTRACT_CACHE_MS) return cached;
  try {
    const fresh = await load(instId);
    if (!fresh || ![fresh.ctVal, fresh.ctMult, fresh.minSz].every((n) => typeof n === 'number' && Number.isFinite(n))) {
      log(`[contract] no contract info for ${instId}`);
      return null;
    }
    const info: ContractInfo = { instId, ctVal: fresh.ctVal, ctMult: fresh.ctMult, minSz: fresh.minSz, updated: true, timestamp: now() };
    try {
      storage.setItem(contractCacheKey(instId), JSON.stringify(info));
    } catch {
      // quota: the answer still serves this call
    }
    return info;
  } catch (error) {
    log(`[contract] loading contract info for ${instId} failed`, error);
    return null;
  }
}
