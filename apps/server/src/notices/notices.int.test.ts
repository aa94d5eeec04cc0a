// Notices on a real app and database: written and published with the operator commands, read
// through the API in the reader's language (English when the notice has none), scheduled ones
// hidden until their time, pinned first, read state and the unread badge (notices from before a
// user registered count as read unless pinned), guests, unpublishing, and Markdown that tries to
// run script or carry content neutralised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NoticeDetail, NoticeList } from '@lq/contracts';
import { startAppWithOps, type AppWithOps } from '../../test/app-with-ops';
import { registeredUserWithId, type Envelope, type RegisteredUser, type TestApp } from '../../test/helpers';

let t: TestApp;
let out: string[];
let ops: AppWithOps['ops'];
beforeAll(async () => {
  ({ t, out, ops } = await startAppWithOps('Asia/Shanghai'));
});
afterAll(() => t?.close());

const list = async (u: RegisteredUser | null, lang = 'en_US', query = '') =>
  (await t.call('GET', `/user/api/notice/list${query}`, { token: u?.token, lang })).json<Envelope<NoticeList>>();
const detail = async (u: RegisteredUser | null, id: number, lang = 'en_US') => t.call('GET', `/user/api/notice/detail?id=${id}`, { token: u?.token, lang });
const unread = async (u: RegisteredUser) => (await t.call('GET', '/user/api/notice/unread', { token: u.token })).json<Envelope<{ unread: number }>>().data.unread;

/** Creates a notice with an en-US text through the operator command; answers its id. */
async function created(title: string, body = 'Body of ' + title, extra: string[] = []): Promise<number> {
  expect(await ops('notice:create', '--category', 'notice', '--locale', 'en-US', '--title', title, '--body', body, ...extra)).toBe(0);
  const id = Number(/notice #(\d+) created/.exec(out.at(-1)!)?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

describe('notices', () => {
  it('drafts and scheduled notices stay hidden; published ones read in the reader’s language, else English; pinned first', async () => {
    const reader = await registeredUserWithId(t);
    const a = await created('Maintenance on Sunday', '**Trading** pauses 02:00–03:00.\n\nSee [status](https://status.example.com).');
    expect(await ops('notice:text', String(a), '--locale', 'th-TH', '--title', 'ปิดปรับปรุงวันอาทิตย์', '--body', 'หยุดซื้อขาย 02:00–03:00')).toBe(0);
    expect((await list(reader)).data).toMatchObject({ list: [], total: 0 });
    expect((await detail(reader, a)).statusCode).toBe(404);

    expect(await ops('notice:publish', String(a))).toBe(0);
    expect(out.at(-1)).toBe(`notice #${a} published`);
    const b = await created('Grid strategy v2', 'New grid.', ['--pin', 'yes']);
    expect(await ops('notice:publish', String(b), '--at', new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z'))).toBe(0);
    expect(out.at(-1)).toMatch(new RegExp(`^notice #${b} scheduled for `));
    expect(await ops('notice:list')).toBe(0);
    expect(out.slice(-3).join('\n')).toMatch(new RegExp(`${b}\\s+scheduled\\s+notice\\s+yes`));
    expect(out.slice(-3).join('\n')).toMatch(new RegExp(`${a}\\s+published\\s+notice\\s+\\S+\\s+en-US,th-TH`));

    const en = (await list(reader)).data;
    expect(en.list.map((n) => n.id)).toEqual([a]);
    expect(en.list[0]).toMatchObject({ title: 'Maintenance on Sunday', locale: 'en-US', excerpt: 'Trading pauses 02:00–03:00. See status.', read: false, pinned: false });
    expect((await list(reader, 'th_TH')).data.list[0]).toMatchObject({ title: 'ปิดปรับปรุงวันอาทิตย์', locale: 'th-TH', excerpt: 'หยุดซื้อขาย 02:00–03:00' });
    expect((await list(reader, 'ja_JP')).data.list[0]).toMatchObject({ title: 'Maintenance on Sunday', locale: 'en-US' });
    expect((await detail(reader, b)).statusCode).toBe(404);

    // Its time comes: the pinned one shows first.
    await t.database.exec(`update notices set publish_at = now() - interval '1 second' where id = $1`, [b]);
    expect((await list(reader)).data.list.map((n) => n.id)).toEqual([b, a]);
    const shown = (await detail(reader, a, 'th_TH')).json<Envelope<NoticeDetail>>().data;
    expect(shown).toMatchObject({ id: a, title: 'ปิดปรับปรุงวันอาทิตย์', locale: 'th-TH', html: '<p>หยุดซื้อขาย 02:00–03:00</p>\n' });
    const enShown = (await detail(reader, a)).json<Envelope<NoticeDetail>>().data;
    expect(enShown.html).toBe(
      '<p><strong>Trading</strong> pauses 02:00–03:00.</p>\n<p>See <a href="https://status.example.com" target="_blank" rel="noopener noreferrer nofollow">status</a>.</p>\n',
    );

    // Unpublished: gone for readers, kept for operators; published again, back.
    expect(await ops('notice:unpublish', String(a))).toBe(0);
    expect((await list(reader)).data.list.map((n) => n.id)).toEqual([b]);
    expect((await detail(reader, a)).statusCode).toBe(404);
    expect(await ops('notice:publish', String(a))).toBe(0);
    expect((await list(reader)).data.list.map((n) => n.id)).toEqual([b, a]);
    expect((await list(reader, 'en_US', '?category=news')).data.total).toBe(0);
    expect(await ops('notice:pin', String(b), 'no')).toBe(0);
    expect(await ops('notice:unpublish', String(b))).toBe(0);
    expect(await ops('notice:unpublish', String(a))).toBe(0);
  });

  it('counts unread, reads one or all, and counts what came before registration as read unless pinned', async () => {
    const old = await created('Old news');
    const oldPinned = await created('Read me first', 'Rules.', ['--pin', 'yes']);
    expect(await ops('notice:publish', String(old))).toBe(0);
    expect(await ops('notice:publish', String(oldPinned))).toBe(0);
    await t.database.exec(`update notices set publish_at = now() - interval '1 hour' where id in ($1, $2)`, [old, oldPinned]);
    const user = await registeredUserWithId(t);
    const fresh = await created('Fresh');
    const fresher = await created('Fresher');
    expect(await ops('notice:publish', String(fresh))).toBe(0);
    expect(await ops('notice:publish', String(fresher))).toBe(0);

    expect(await unread(user)).toBe(3);
    const before = (await list(user)).data;
    expect(before.unread).toBe(3);
    expect(Object.fromEntries(before.list.map((n) => [n.id, n.read]))).toEqual({ [old]: true, [oldPinned]: false, [fresh]: false, [fresher]: false });

    const one = await t.call('POST', '/user/api/notice/read', { token: user.token, body: { id: fresh } });
    expect(one.json<Envelope<{ unread: number }>>().data.unread).toBe(2);
    expect((await t.call('POST', '/user/api/notice/read', { token: user.token, body: { id: fresh } })).json<Envelope<{ unread: number }>>().data.unread).toBe(2);
    expect((await list(user)).data.list.find((n) => n.id === fresh)?.read).toBe(true);
    expect((await t.call('POST', '/user/api/notice/read', { token: user.token, body: {} })).json<Envelope<{ unread: number }>>().data.unread).toBe(0);
    expect(await unread(user)).toBe(0);

    // A draft, or a notice that does not exist, cannot be read.
    const draft = await created('Draft');
    expect((await t.call('POST', '/user/api/notice/read', { token: user.token, body: { id: draft } })).statusCode).toBe(404);
    expect((await t.call('POST', '/user/api/notice/read', { token: user.token, body: { id: 999_999 } })).statusCode).toBe(404);

    // Guests see the list, nothing read; counting and marking need a user.
    const guest = (await list(null)).data;
    expect(guest.unread).toBe(0);
    expect(guest.list.every((n) => !n.read)).toBe(true);
    expect((await detail(null, fresh)).statusCode).toBe(200);
    expect((await t.call('POST', '/user/api/notice/read', { body: {} })).statusCode).toBe(401);
    expect((await t.call('GET', '/user/api/notice/unread', {})).statusCode).toBe(401);

    // Bad input is refused with the field named.
    expect((await t.call('GET', '/user/api/notice/detail?id=abc', { token: user.token })).statusCode).toBe(422);
    expect((await t.call('GET', '/user/api/notice/list?size=500', { token: user.token })).statusCode).toBe(422);
    expect((await t.call('GET', '/user/api/notice/list?category=ads', { token: user.token })).statusCode).toBe(422);
    expect((await t.call('POST', '/user/api/notice/read', { token: user.token, body: { id: fresh, all: true } })).statusCode).toBe(422);
    for (const id of [old, oldPinned, fresh, fresher]) expect(await ops('notice:unpublish', String(id))).toBe(0);
    expect(await ops('notice:delete', String(draft))).toBe(0);
  });

  it('renders Markdown without raw HTML and drops javascript:, vbscript: and data: links', async () => {
    const body = [
      '<script>alert(1)</script>',
      '<img src=x onerror=alert(2)>',
      '<a href="javascript:alert(3)">raw</a>',
      '[js](javascript:alert(4)) [JS](JAVASCRIPT:alert(5)) [entity](java&#x73;cript:alert(6)) [spaced]( javascript:alert(7))',
      '[vb](vbscript:msgbox(8)) [html](data:text/html;base64,PHNjcmlwdD5hbGVydCg5KTwvc2NyaXB0Pg==) ![pixel](data:image/png;base64,iVBORw0KGgo=)',
      '<javascript:alert(10)> [file](file:///etc/passwd)',
      '[fine](https://example.com/a?b=1) and https://example.org',
    ].join('\n\n');
    const id = await created('Markdown', body);
    expect(await ops('notice:publish', String(id))).toBe(0);
    const { html } = (await detail(null, id)).json<Envelope<NoticeDetail>>().data;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toMatch(/<a[^>]*href="(javascript|vbscript|data|file):/i);
    expect(html).not.toMatch(/<img[^>]*src="data:/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer nofollow">fine</a>');
    expect(html).toContain('<a href="https://example.org" target="_blank" rel="noopener noreferrer nofollow">https://example.org</a>');
    // Every link left in the page points at http(s).
    expect([...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((m) => m[1]).filter((u) => !/^https?:\/\//.test(u))).toEqual([]);
    expect(await ops('notice:unpublish', String(id))).toBe(0);
  });

  it('refuses what an operator gets wrong, saying why', async () => {
    const id = await created('Ops');
    expect(await ops('notice:drop-text', String(id), '--locale', 'en-US')).toBe(0);
    expect(await ops('notice:publish', String(id))).toBe(1);
    expect(out.at(-1)).toMatch(/has no en-US text/);
    expect(await ops('notice:text', String(id), '--locale', 'en-US', '--title', 'x'.repeat(121), '--body', 'b')).toBe(1);
    expect(out.at(-1)).toMatch(/en-US: title/);
    expect(await ops('notice:text', String(id), '--locale', 'xx-XX', '--title', 't', '--body', 'b')).toBe(2);
    expect(await ops('notice:text', String(id), '--locale', 'en-US', '--title', 't')).toBe(2);
    expect(await ops('notice:text', String(id), '--locale', 'en-US', '--title', 'Ops', '--body', '# Hello')).toBe(0);
    expect(await ops('notice:show', String(id))).toBe(0);
    expect(out.slice(-2)).toEqual(['--- en-US: Ops', '# Hello']);
    expect(await ops('notice:create', '--category', 'ads', '--locale', 'en-US', '--title', 't', '--body', 'b')).toBe(2);
    expect(await ops('notice:publish', String(id), '--at', '2026-12-01 09:00')).toBe(2);
    expect(out.at(-1)).toMatch(/a time with its offset/);
    expect(await ops('notice:unpublish', String(id))).toBe(1);
    expect(await ops('notice:publish', String(id))).toBe(0);
    expect(await ops('notice:drop-text', String(id), '--locale', 'en-US')).toBe(1);
    expect(await ops('notice:delete', String(id))).toBe(1);
    expect(out.at(-1)).toMatch(/unpublish it instead/);
    expect(await ops('notice:show', '999999')).toBe(1);
    expect(await ops('notice:pin', String(id), 'maybe')).toBe(2);
    expect(await ops('notice:unpublish', String(id))).toBe(0);
  });
});
