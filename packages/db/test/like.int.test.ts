// containsPattern on a real PostgreSQL engine (PGlite in memory): the words match anywhere, and a
// search for `%`, `_` or `\` finds those characters, not everything.
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { containsPattern } from '../src';

const pg = new PGlite();
afterAll(() => pg.close());

const matches = async (value: string, search: string) =>
  (await pg.query<{ ok: boolean }>('select $1::text ilike $2::text as ok', [value, containsPattern(search)])).rows[0].ok;

describe('containsPattern', () => {
  it('matches the words anywhere, case-insensitively with ILIKE', async () => {
    expect(await matches('Alice@Example.com', 'example')).toBe(true);
    expect(await matches('alice@example.com', 'bob')).toBe(false);
  });

  it('takes %, _ and \\ literally', async () => {
    expect(await matches('a 100% gain', '100%')).toBe(true);
    expect(await matches('a 1000 gain', '100%')).toBe(false);
    expect(await matches('user_1', 'r_1')).toBe(true);
    expect(await matches('userX1', 'r_1')).toBe(false);
    expect(await matches('C:\\path', ':\\p')).toBe(true);
    expect(await matches('anything', '%')).toBe(false);
  });
});
