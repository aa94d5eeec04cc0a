// A message names a field as its form labels it, in the user's language — never `params.x` or an
// internal name. Generated from the route table (every body and query field of every route, every
// strategy parameter), so a new field without a label in all seven languages fails here; and every
// route that needs a body answers an empty one in each language without an internal name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_LABELS, LOCALES, toLangHeader } from '@lq/contracts';
import { strategyParamSchemas } from '@lq/strategies/schemas';
import { registerUser, startTestApp, type RegisteredUser, type TestApp } from '../../test/helpers';

interface Operation {
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown>; required?: string[] } }> };
  parameters?: { in: string; name: string }[];
}

let t: TestApp;
let user: RegisteredUser;
let operations: { method: string; path: string; op: Operation }[];

beforeAll(async () => {
  t = await startTestApp();
  user = await registerUser(t);
  const doc = (t.app as unknown as { swagger(): { paths: Record<string, Record<string, Operation>> } }).swagger();
  operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
});
afterAll(async () => {
  await t?.close();
});

const bodyOf = (op: Operation) => op.requestBody?.content?.['application/json']?.schema;
/** An internal name: camelCase (lotsPerGrid, dataSource) or a dotted path (params.x). */
const INTERNAL = /\b[a-z]+[A-Z]\w*\b|\bparams\./;

describe('field names in messages', () => {
  it('every field of every route and every strategy parameter has a label in all seven languages', () => {
    const names = new Set<string>();
    for (const { op } of operations) {
      for (const name of Object.keys(bodyOf(op)?.properties ?? {})) names.add(name);
      for (const p of op.parameters ?? []) if (p.in === 'query') names.add(p.name);
    }
    for (const schema of Object.values(strategyParamSchemas)) for (const name of Object.keys(schema.shape)) names.add(name);
    expect(names.size).toBeGreaterThan(60);
    const missing = LOCALES.flatMap((locale) => [...names].filter((n) => !FIELD_LABELS[locale][n]).map((n) => `${locale} ${n}`));
    expect(missing).toEqual([]);
    // A label is words, not the name again (a one-word English name may be its own label).
    const raw = LOCALES.flatMap((locale) => [...names].filter((n) => INTERNAL.test(FIELD_LABELS[locale][n]) || (FIELD_LABELS[locale][n] === n && /[A-Z]/.test(n))).map((n) => `${locale} ${n}`));
    expect(raw).toEqual([]);
  });

  it('an empty body to every route that needs one is refused in each language without an internal name', async () => {
    const needingBody = operations.filter(({ op }) => (bodyOf(op)?.required ?? []).length > 0);
    expect(needingBody.length).toBeGreaterThan(15);
    const found: string[] = [];
    for (const { method, path } of needingBody) {
      for (const locale of LOCALES) {
        const res = await t.call(method as 'POST', path, { token: user.token, body: {}, lang: toLangHeader(locale) });
        const body = res.json<{ msg: string; data: { field?: string } | null }>();
        if (res.statusCode < 400 || res.statusCode >= 500) found.push(`${locale} ${method} ${path}: ${res.statusCode}`);
        const field = body.data?.field;
        const leaks = INTERNAL.test(body.msg) || (field !== undefined && !['en-US', 'in_ID', 'vi-VN'].includes(locale) && body.msg.includes(field));
        if (leaks) found.push(`${locale} ${method} ${path}: ${body.msg}`);
      }
    }
    expect(found).toEqual([]);
  });
});
