// Calls of the trading-account screens (paths of packages/contracts/src/account.ts, docs/api.md
// "Trading accounts"), their TanStack Query hooks, and the client-side encryption of secrets.
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type {
  AccountBindResult,
  AccountExchange,
  AccountItem,
  AccountList,
  AccountMarket,
  AccountOverview,
  AccountPublicKey,
} from '@lq/contracts';
import type { RequestOptions } from '../../lib/api';
import { api } from '../../lib/session';
import type { StepUpProof } from '../../components/StepUpField';

export const PATHS = {
  publicKey: 'user/api/apikey/public-key',
  overview: 'user/api/apikey/overview',
  list: 'user/api/apikey/list',
  detail: 'user/api/apikey/detail',
  bind: 'user/api/apikey/bind',
  edit: 'user/api/apikey/edit',
  unbind: 'user/api/apikey/unbind',
  check: 'user/api/apikey/check',
  release: 'user/api/apikey/release',
  rotate: 'user/api/apikey/rotate-token',
} as const;

export const APIKEY_PATH = '/pages/apikey/apikey';
export const BIND_MARKET_PATH = '/pages/apikey/bindMarket';
export const API_LIST_PATH = '/pages/apikey/apiList';
export const API_ADD_PATH = '/pages/apikey/apiAdd';
export const listPath = (market: AccountMarket) => `${API_LIST_PATH}?market=${market}`;
export const addPath = (exchange: AccountExchange) => `${API_ADD_PATH}?exchange=${exchange}`;

/** Exchanges per market (EXCHANGES_OF_MARKET of contracts, kept here to stay off the runtime import). */
export const EXCHANGES: Record<AccountMarket, AccountExchange[]> = { crypto: ['binance', 'okx'], forex: ['mt5'] };
export const MARKETS: AccountMarket[] = ['forex', 'crypto'];
export const marketOf = (exchange: string): AccountMarket => (exchange === 'mt5' ? 'forex' : 'crypto');
export const isMarket = (v: unknown): v is AccountMarket => v === 'forex' || v === 'crypto';
export const isExchange = (v: unknown): v is AccountExchange => v === 'binance' || v === 'okx' || v === 'mt5';
/** Data source type → market (mt5 is forex, the others crypto). */
export const marketOfDataSource = (type: string): AccountMarket => (type === 'mt5' ? 'forex' : 'crypto');

export function useOverview() {
  return useQuery({ queryKey: ['apikey', 'overview'], queryFn: () => api.get<AccountOverview>(PATHS.overview, { silent: true }) });
}

export function useAccounts(market: AccountMarket) {
  return useQuery({
    queryKey: ['apikey', 'list', market],
    queryFn: () => api.get<AccountList>(PATHS.list, { query: { market }, silent: true }),
    // the MT5 bridge status changes on its own
    refetchInterval: market === 'forex' ? 10_000 : false,
  });
}

export const invalidateAccounts = (qc: QueryClient) =>
  Promise.all([qc.invalidateQueries({ queryKey: ['apikey'] }), qc.invalidateQueries({ queryKey: ['robot-form-accounts'] })]);

// ---- secrets: RSA-OAEP (SHA-256) with the server's public key, through Web Crypto ----

let keyPromise: Promise<CryptoKey> | undefined;

function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function bytesToBase64(bytes: ArrayBuffer): string {
  const view = new Uint8Array(bytes);
  let bin = '';
  for (const b of view) bin += String.fromCharCode(b);
  return btoa(bin);
}

async function publicKey(): Promise<CryptoKey> {
  keyPromise ??= api
    .get<AccountPublicKey>(PATHS.publicKey)
    .then((k) => crypto.subtle.importKey('spki', base64ToBytes(k.spki), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']));
  try {
    return await keyPromise;
  } catch (err) {
    keyPromise = undefined;
    throw err;
  }
}

/** A secret as the server expects it: RSA-OAEP ciphertext of the server's public key, base64. */
export async function sealSecret(plain: string): Promise<string> {
  const key = await publicKey();
  const sealed = await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain));
  return bytesToBase64(sealed);
}

/** Forget the cached public key (the server answered SECRET_UNREADABLE: it may have a new one). */
export const forgetPublicKey = () => {
  keyPromise = undefined;
};

// ---- writes ----

export interface CryptoBindValues {
  exchange: 'binance' | 'okx';
  accountName: string;
  remark: string;
  apiKey: string;
  secretKey: string;
  passphrase: string;
  leverage: number;
}

/** The step-up of a bind: `code` (API_KEY e-mail code) or `twoFactorCode`. */
export type BindProof = StepUpProof;

export async function bindCrypto(v: CryptoBindValues, proof: BindProof): Promise<AccountBindResult> {
  const body: Record<string, unknown> = {
    ...proof,
    exchange: v.exchange,
    accountName: v.accountName,
    apiKey: v.apiKey.trim(),
    secretKey: await sealSecret(v.secretKey.trim()),
    leverage: v.leverage,
  };
  if (v.remark.trim()) body.remark = v.remark;
  if (v.exchange === 'okx') body.passphrase = await sealSecret(v.passphrase.trim());
  return api.post<AccountBindResult>(PATHS.bind, body);
}

export function bindMt5(v: { accountName: string; remark: string; leverage: number }, proof: BindProof): Promise<AccountBindResult> {
  const body: Record<string, unknown> = { ...proof, exchange: 'mt5', accountName: v.accountName, leverage: v.leverage };
  if (v.remark.trim()) body.remark = v.remark;
  return api.post<AccountBindResult>(PATHS.bind, body);
}

export interface EditValues {
  accountName: string;
  remark: string;
  leverage: number;
  apiKey?: string;
  secretKey?: string;
  passphrase?: string;
}

export async function editAccount(account: AccountItem, v: EditValues, proof: BindProof = {}): Promise<AccountItem> {
  const body: Record<string, unknown> = { id: account.id, accountName: v.accountName, remark: v.remark, leverage: v.leverage };
  if (v.secretKey?.trim()) {
    Object.assign(body, proof);
    body.secretKey = await sealSecret(v.secretKey.trim());
    if (v.apiKey?.trim()) body.apiKey = v.apiKey.trim();
    if (v.passphrase?.trim()) body.passphrase = await sealSecret(v.passphrase.trim());
  }
  return api.request<AccountItem>('PUT', PATHS.edit, { body });
}

export const unbindAccount = (id: number) => api.request<null>('DELETE', PATHS.unbind, { query: { id } });
export const recheckAccount = (id: number) => api.post<AccountItem>(PATHS.check, { id });
/** Unfreezes an account its seat expiry froze, once a seat of its market is free (bought). */
export const releaseAccount = (id: number) => api.post<AccountItem>(PATHS.release, { id });
export const rotateToken = (id: number, proof: BindProof, options?: RequestOptions) => api.post<AccountBindResult>(PATHS.rotate, { id, ...proof }, options);
