// API client (spec §7, §8): `{code,msg,data}` envelopes, Bearer token, `lang` header, full-width
// to half-width normalisation, 60 s timeout, and the HTTP 401 reset.
import { NETWORK_TIMEOUT_MS, SUCCESS_CODE, normalizeFullWidth, toLangHeader, type Envelope, type Locale } from '@lq/contracts';

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: unknown;
  constructor(code: string, message: string, status: number, data: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.data = data;
  }
}

/** The request field a refused request named (the envelope's `data.field`), if any. */
export const errorField = (e: unknown): string | undefined =>
  e instanceof ApiError ? ((e.data as { field?: string } | null)?.field ?? undefined) : undefined;

/** A request that never got an envelope back: offline, refused, or timed out. */
export class TransportError extends Error {
  readonly timeout: boolean;
  constructor(timeout: boolean, cause?: unknown) {
    super(timeout ? 'timeout' : 'network', { cause });
    this.name = 'TransportError';
    this.timeout = timeout;
  }
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Do not toast the error (the caller handles it, or it is ignored as spec §8 says). */
  silent?: boolean;
  signal?: AbortSignal;
}

export interface ApiClientDeps {
  fetch: typeof fetch;
  baseUrl: string;
  getToken(): string | null;
  getLocale(): Locale;
  /** Called on HTTP 401 before the promise rejects, with the token the request carried. */
  onUnauthorized(failedToken: string | null): void;
  /** Shows an error to the user (the server's msg or a transport message). */
  notify(error: ApiError | TransportError): void;
  timeoutMs?: number;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export function createApiClient(deps: ApiClientDeps) {
  async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
    const url = new URL(path.replace(/^\//, ''), deps.baseUrl);
    for (const [k, v] of Object.entries(normalizeFullWidth(options.query ?? {}))) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const headers: Record<string, string> = { lang: toLangHeader(deps.getLocale()), accept: 'application/json' };
    const token = deps.getToken();
    if (token) headers.authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(normalizeFullWidth(options.body));
    }
    const timeout = AbortSignal.timeout(deps.timeoutMs ?? NETWORK_TIMEOUT_MS);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

    let response: Response;
    let envelope: Envelope<T> | undefined;
    try {
      response = await deps.fetch(url, { method, headers, body, signal });
      envelope = (await response.json().catch(() => undefined)) as Envelope<T> | undefined;
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      const error = new TransportError(timeout.aborted, cause);
      if (!options.silent) deps.notify(error);
      throw error;
    }
    if (response.status === 401) deps.onUnauthorized(token);
    if (!envelope || typeof envelope.code !== 'string') {
      const error = new TransportError(false);
      if (!options.silent && response.status !== 401) deps.notify(error);
      throw error;
    }
    if (envelope.code !== SUCCESS_CODE) {
      const error = new ApiError(envelope.code, envelope.msg, response.status, envelope.data);
      if (!options.silent) deps.notify(error);
      throw error;
    }
    return envelope.data;
  }

  return {
    request,
    get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
    post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body: body ?? {} }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
