import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, TransportError, type ApiClientDeps } from '../src/lib/api';
import { throttle } from '../src/lib/throttle';
import { toastDuration } from '../src/lib/toast';

type Call = { url: URL; init: RequestInit };

function client(respond: (call: Call) => Promise<Response> | Response, over: Partial<ApiClientDeps> = {}) {
  const calls: Call[] = [];
  const deps = {
    fetch: vi.fn((url: URL, init: RequestInit) => {
      const call = { url, init };
      calls.push(call);
      return Promise.resolve(respond(call));
    }) as unknown as typeof fetch,
    baseUrl: 'http://127.0.0.1:8080/',
    getToken: () => 'tok123',
    getLocale: () => 'zh-TW' as const,
    onUnauthorized: vi.fn(),
    notify: vi.fn(),
    ...over,
  };
  return { api: createApiClient(deps), calls, deps };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('api client', () => {
  it('sends token, lang header with underscore and half-width values; returns data', async () => {
    const { api, calls } = client(() => json({ code: '00000', msg: 'ok', data: { id: 1 } }));
    const data = await api.post<{ id: number }>('/user/api/nickname', { nickname: 'ＡＢＣ１　２' });
    expect(data).toEqual({ id: 1 });
    const { url, init } = calls[0];
    expect(url.href).toBe('http://127.0.0.1:8080/user/api/nickname');
    const headers = init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer tok123');
    expect(headers.lang).toBe('zh_TW');
    expect(JSON.parse(init.body as string)).toEqual({ nickname: 'ABC1 2' });
  });

  it('omits Authorization without a token and puts query values in the URL', async () => {
    const { api, calls } = client(() => json({ code: '00000', msg: '', data: null }), { getToken: () => null, getLocale: () => 'in_ID' });
    await api.get('user/api/index/datasouce-list', { query: { dataSource: 'ｍｔ５', skip: undefined } });
    const headers = calls[0].init.headers as Record<string, string>;
    expect(headers.authorization).toBeUndefined();
    expect(headers.lang).toBe('in_ID');
    expect(calls[0].url.search).toBe('?dataSource=mt5');
  });

  it('rejects a non-success code with the server message and shows it', async () => {
    const { api, deps } = client(() => json({ code: 'A0210', msg: '電子郵件或密碼錯誤', data: null }, 400));
    const error = await api.post('user/api/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('A0210');
    expect((error as ApiError).message).toBe('電子郵件或密碼錯誤');
    expect(deps.notify).toHaveBeenCalledOnce();
    expect(deps.onUnauthorized).not.toHaveBeenCalled();
  });

  it('silent requests do not toast', async () => {
    const { api, deps } = client(() => json({ code: 'B0001', msg: 'x', data: null }, 500));
    await expect(api.get('x', { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(deps.notify).not.toHaveBeenCalled();
  });

  it('calls the 401 handler on HTTP 401 with the token the request carried', async () => {
    const { api, deps } = client(() => json({ code: 'A0200', msg: 'Please log in', data: null }, 401));
    await expect(api.get('user/api/info')).rejects.toBeInstanceOf(ApiError);
    expect(deps.onUnauthorized).toHaveBeenCalledOnce();
    expect(deps.onUnauthorized).toHaveBeenCalledWith('tok123');
  });

  it('turns network failures and timeouts into TransportError', async () => {
    const down = client(() => Promise.reject(new TypeError('fetch failed')));
    const e1 = await down.api.get('x').catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(TransportError);
    expect((e1 as TransportError).timeout).toBe(false);
    expect(down.deps.notify).toHaveBeenCalledOnce();

    const slow = client(
      ({ init }) =>
        new Promise<Response>((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason as Error))),
      { timeoutMs: 20 },
    );
    const e2 = await slow.api.get('x').catch((e: unknown) => e);
    expect((e2 as TransportError).timeout).toBe(true);
  });

  it('treats a body without an envelope as a transport error', async () => {
    const { api } = client(() => new Response('<html>', { status: 502 }));
    await expect(api.get('x')).rejects.toBeInstanceOf(TransportError);
  });
});

describe('throttle', () => {
  it('runs at most once per window', () => {
    let now = 0;
    const fn = vi.fn();
    const t = throttle(fn, 1500, () => now);
    t();
    now = 1000;
    t();
    now = 1500;
    t();
    expect(fn).toHaveBeenCalledTimes(2);
  });
});

describe('toast duration', () => {
  it('is 2000 ms on wide landscape, 3000 ms otherwise', () => {
    expect(toastDuration(1280, 800)).toBe(2000);
    expect(toastDuration(390, 844)).toBe(3000);
    expect(toastDuration(800, 700)).toBe(3000); // wide but not landscape enough (1.14)
    expect(toastDuration(700, 300)).toBe(3000); // landscape but under 768 px
  });
});
