// The e2e run's local EVM chain (started by global-setup): its URL and test USDT, and mining.
import { readFileSync } from 'node:fs';
import type { Address } from 'viem';
import { CHAIN_FILE } from './env';

export const chain = () => JSON.parse(readFileSync(CHAIN_FILE, 'utf8')) as { url: string; token: Address };

/** Mines `blocks` empty blocks (confirmations for what is already mined). */
export async function mine(blocks: number): Promise<void> {
  await fetch(chain().url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hardhat_mine', params: [`0x${blocks.toString(16)}`] }) });
}
