// Every endpoint of the OpenAPI document fed generated bad requests (fast-check): known fields with
// hostile values (control characters, huge strings, wrong types, extreme numbers, deep nesting),
// unknown fields, bodies that are not objects, query strings and path parameters alike, with and
// without a session. Whatever comes in: never a 5xx, always the {code, msg, data} envelope.
// Exchanges are the fakes on 127.0.0.1 (binding a key calls them). FUZZ_RUNS sets the runs per
// endpoint (default 200).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeBinance, FakeOkx } from '@lq/venues/fake';
import { registerUser, startTestApp, type TestApp } from './helpers';

const RUNS = Number(process.env.FUZZ_RUNS ?? 200);

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}
interface Operation {
  parameters?: { name: string; in: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

let t: TestApp;
let binance: FakeBinance;
let okx: FakeOkx;
let userId: number;
let paths: Record<string, Record<string, Operation>> = {};

beforeAll(async () => {
  binance = new FakeBinance();
  okx = new FakeOkx();
  t = await startTestApp({ env: { EXCHANGE_BINANCE_URL: await binance.listen(), EXCHANGE_OKX_URL: await okx.listen(), AUTH_CACHE_MS: '0' } });
  // Listening, as deployed: the simulated card provider is served by this server and called over
  // HTTP (not listening, a valid card/create would meet a provider that is down: 502 C0200).
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const u = await registerUser(t);
  const [row] = await t.database.exec<{ id: number }>(`update users set user_level = 'VIP1' where mail = $1 returning id::int as id`, [u.mail]);
  userId = row.id;
  paths = (await t.call('GET', '/docs/json')).json<{ paths: typeof paths }>().paths;
}, 120_000);
afterAll(async () => {
  await t?.close();
  await binance?.close();
  await okx?.close();
});

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\u001b[31m', '\u007f', "' or 1=1 --", '<script>alert(1)</script>', '../../etc/passwd', 'NaN', '1e309', '-1', '0x1F', '９９', '👨‍👩‍👧‍👦', 'BTCUSDT', 'binance', 'mt5', 'grid', '2024-01-01', 'a@b.co'),
  fc.string({ maxLength: 70_000 }).map((s) => s.padEnd(70_000, 'x')),
);
const hostileNumber = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom(0, -1, 1, 1e308, -1e308, 2 ** 53 + 1, 0.1 + 0.2, 1e-320));
const leaf = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));
const hostileValue = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(hostileString, tie('value'), { maxKeys: 4 })),
})).value;

/** A value the schema accepts (or nearly: patterns and lengths are approximated). */
function plausible(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return leaf;
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map((a) => plausible(a, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000);
  const max = Math.min(schema.maximum ?? 1_000_000, 1_000_000_000);
  switch (type) {
    case 'string': {
      const length = { minLength: schema.minLength ?? 0, maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 24, 48)) };
      if (schema.format === 'email') return fc.emailAddress();
      if (schema.pattern) {
        try {
          const re = new RegExp(schema.pattern);
          // Repeated to reach the minimum length (a filter would spin on patterns like `[…]+`
          // whose short strings are the likely ones), cut at the maximum.
          return fc.stringMatching(re).map((v) => (v.length > 0 && v.length < length.minLength ? v.repeat(Math.ceil(length.minLength / v.length)) : v).slice(0, schema.maxLength ?? Infinity));
        } catch {
          // a pattern JavaScript cannot compile: any string of the length
        }
      }
      return fc.string(length);
    }
    case 'integer':
      return fc.integer({ min: Math.ceil(Math.max(min, -1_000_000_000)), max: Math.floor(Math.max(max, min)) });
    case 'number':
      return fc.double({ min: Math.max(min, -1e9), max: Math.max(max, min), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(plausible(schema.items, depth + 1), { maxLength: 3 });
    case 'object': {
      const props = schema.properties ?? {};
      const record = fc.record(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, plausible(v, depth + 1)])), { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
      return typeof schema.additionalProperties === 'object' && Object.keys(props).length === 0 ? fc.dictionary(fc.string({ maxLength: 12 }), leaf, { maxKeys: 4 }) : record;
    }
    default:
      return leaf;
  }
}

/** One field (or the body itself) made hostile: a control character in a string, or any bad value. */
function mutate(value: unknown, pick: number, bad: unknown, control: string): unknown {
  if (typeof value === 'string') return value + control;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return bad;
  const keys = Object.keys(value);
  if (keys.length === 0) return { ...value, [String(control)]: bad };
  const key = keys[pick % keys.length];
  return { ...value, [key]: pick % 3 === 0 ? bad : mutate((value as Record<string, unknown>)[key], Math.floor(pick / 3), bad, control) };
}

const controlCharacter = fc.constantFrom('\u0000', '\u0001', '\u001b', '\u007f', '\u0008');

/** Bodies: plausible ones, plausible ones with one hostile field, and bodies that are anything at all. */
function bodyArb(op: Operation) {
  const schema = op.requestBody?.content?.['application/json']?.schema;
  const good = plausible(schema ?? { type: 'object' });
  const bad = fc.tuple(good, fc.nat(), hostileValue, controlCharacter).map(([v, pick, hostile, control]) => mutate(v, pick, hostile, control));
  return fc.oneof({ weight: 2, arbitrary: good }, { weight: 6, arbitrary: bad }, { weight: 1, arbitrary: hostileValue });
}

function queryArb(op: Operation) {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query');
  const value = (p: { schema?: JsonSchema }) =>
    fc.oneof(
      { weight: 3, arbitrary: plausible(p.schema).map(String) },
      { weight: 2, arbitrary: fc.tuple(plausible(p.schema).map(String), controlCharacter).map(([v, c]) => v + c) },
      { weight: 2, arbitrary: fc.oneof(hostileString, hostileNumber.map(String)) },
    );
  return fc.record(Object.fromEntries(params.map((p) => [p.name, value(p)])), { requiredKeys: [] });
}

const skipped = (path: string) => path.startsWith('/docs') || path === '/bridge/v1' || path === '/';

describe('every endpoint: generated bad requests never give a 5xx, always the envelope', () => {
  it('has the endpoints of the API description', () => {
    const operations = Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
    expect(operations.length).toBeGreaterThan(45);
  });

  it('answers every generated request of every endpoint', async () => {
    let requests = 0;
    let endpoints = 0;
    for (const [path, ops] of Object.entries(paths)) {
      if (skipped(path)) continue;
      for (const [method, op] of Object.entries(ops)) {
        const upper = method.toUpperCase() as 'GET' | 'POST';
        // A fresh session per endpoint: logout or a password change may end the last one.
        const { token } = await t.app.sessions.issue(userId, '127.0.0.1', 'fuzz');
        endpoints++;
        await fc.assert(
          fc.asyncProperty(bodyArb(op), queryArb(op), fc.string({ maxLength: 12 }), fc.boolean(), async (body, query, pathParam, authed) => {
            const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
            const url = `${path.replace(/\{[^}]+\}/g, encodeURIComponent(pathParam) || 'x')}${qs ? `?${qs}` : ''}`;
            const res = await t.call(upper, url, {
              token: authed ? token : undefined,
              lang: 'en_US',
              ...(upper === 'GET' ? {} : { body: JSON.stringify(body) ?? 'null', headers: { 'content-type': 'application/json' } }),
            });
            requests++;
            const what = `${upper} ${url.slice(0, 200)} ${String(JSON.stringify(body)).slice(0, 300)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
            expect(res.statusCode, what).toBeLessThan(500);
            // A file download (the rebate history) answers its file, not an envelope, when it succeeds.
            if (res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/csv')) return;
            const envelope = JSON.parse(res.body) as Record<string, unknown>;
            expect(typeof envelope.code, what).toBe('string');
            expect(typeof envelope.msg, what).toBe('string');
            expect('data' in envelope, what).toBe(true);
          }),
          { numRuns: RUNS, endOnFailure: true },
        );
      }
    }
    expect(endpoints).toBeGreaterThan(45);
    expect(requests).toBeGreaterThanOrEqual(endpoints * RUNS);
  }, 900_000);
});
