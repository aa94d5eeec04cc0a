// The console's notices editor on a real app and database (both): a draft written in two
// languages, previewed as users will see it (raw HTML and script links gone), published — users
// read it in their language, or in English — scheduled, taken down and deleted only as a draft;
// each refusal says why and names the field; every change is in the audit log with before/after.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleNoticeDetail, ConsoleNoticeList } from '@lq/contracts';
import { registerUser, startTestApp, type Envelope, type TestApp } from '../../test/helpers';
import { consoleTestKit } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ shareSocket: true, env: { AUTH_CACHE_MS: '0' } });
});
afterAll(() => t?.close());

const { signedIn } = consoleTestKit(() => t);
const data = <T>(res: { json<U>(): U }) => res.json<Envelope<T>>().data;
const code = (res: { json<U>(): U }) => res.json<Envelope<null>>().code;

describe('notices editor', () => {
  it('writes, previews, publishes, schedules, takes down and deletes notices; users read them in their language', async () => {
    const op = await signedIn();
    const call = (url: string, body?: unknown) => t.call(body === undefined ? 'GET' : 'POST', `/console/api${url}`, { token: op.token, body });
    const stamp = Date.now();
    const texts = [
      { locale: 'ja-JP', title: `メンテナンス ${stamp}`, body: '**12月1日** 02:00–03:00' },
      { locale: 'en-US', title: `Maintenance ${stamp}`, body: '**1 December** 02:00–03:00 UTC+8' },
    ];
    // Only Japanese first: a draft may lack English, publishing may not.
    const draft = data<ConsoleNoticeDetail>(await call('/notices/save', { category: 'notice', pinned: false, texts: [texts[0]] }));
    expect(draft).toMatchObject({ state: 'draft', publishAt: null, texts: [texts[0]] });
    const noEnglish = await call('/notices/publish', { id: draft.id });
    expect([noEnglish.statusCode, code(noEnglish)]).toEqual([409, 'A0394']);
    const saved = data<ConsoleNoticeDetail>(await call('/notices/save', { id: draft.id, category: 'notice', pinned: true, texts }));
    expect(saved.texts.map((x) => x.locale)).toEqual(['en-US', 'ja-JP']);
    expect(saved.pinned).toBe(true);

    const preview = data<{ html: string }>(await call('/notices/preview', { body: 'Hi <script>alert(1)</script> [x](javascript:alert(1)) **bold**' }));
    expect(preview.html).toContain('<strong>bold</strong>');
    expect(preview.html).not.toContain('<script>');
    expect(preview.html).not.toContain('href="javascript:');

    const published = data<ConsoleNoticeDetail>(await call('/notices/publish', { id: draft.id }));
    expect(published.state).toBe('published');
    const reader = await registerUser(t);
    const inJapanese = data<{ list: { id: number; title: string }[] }>(await t.call('GET', '/user/api/notice/list', { token: reader.token, lang: 'ja_JP' }));
    expect(inJapanese.list.find((n) => n.id === draft.id)?.title).toBe(texts[0].title);
    const inThai = data<{ list: { id: number; title: string }[] }>(await t.call('GET', '/user/api/notice/list', { token: reader.token, lang: 'th_TH' }));
    expect(inThai.list.find((n) => n.id === draft.id)?.title).toBe(texts[1].title);

    // Published: its English text stays; deleting it is refused (taken down instead).
    const dropEnglish = await call('/notices/save', { id: draft.id, category: 'notice', pinned: true, texts: [texts[0]] });
    expect([dropEnglish.statusCode, code(dropEnglish), data<{ field: string }>(dropEnglish).field]).toEqual([409, 'A0394', 'texts']);
    expect(code(await call('/notices/delete', { id: draft.id }))).toBe('A0395');
    expect(data<ConsoleNoticeDetail>(await call('/notices/unpublish', { id: draft.id })).state).toBe('unpublished');
    const gone = data<{ list: { id: number }[] }>(await t.call('GET', '/user/api/notice/list', { token: reader.token }));
    expect(gone.list.map((n) => n.id)).not.toContain(draft.id);

    // Scheduled for tomorrow: listed as scheduled, not shown yet.
    const later = data<ConsoleNoticeDetail>(await call('/notices/save', { category: 'news', pinned: false, texts: [{ locale: 'en-US', title: `Later ${stamp}`, body: 'soon' }] }));
    const at = new Date(Date.now() + 86_400_000).toISOString();
    expect(data<ConsoleNoticeDetail>(await call('/notices/publish', { id: later.id, at })).state).toBe('scheduled');
    const list = data<ConsoleNoticeList>(await call(`/notices?q=${stamp}&sort=id`));
    expect(list.total).toBe(2);
    expect(list.list.map((n) => n.id)).toEqual([draft.id, later.id]);
    expect(list.list[1]).toMatchObject({ state: 'scheduled', category: 'news', locales: ['en-US'], title: `Later ${stamp}` });
    expect(list.list[0]).toMatchObject({ state: 'unpublished', pinned: true, locales: ['en-US', 'ja-JP'] });
    // Filtered on the server: by state (scheduled told from published by the time), category, a title in any language.
    expect(data<ConsoleNoticeList>(await call(`/notices?state=scheduled&q=${stamp}`)).list.map((n) => n.id)).toEqual([later.id]);
    expect(data<ConsoleNoticeList>(await call(`/notices?state=published&q=${stamp}`)).total).toBe(0);
    expect(data<ConsoleNoticeList>(await call(`/notices?category=notice&q=${encodeURIComponent(`メンテナンス ${stamp}`)}`)).list.map((n) => n.id)).toEqual([draft.id]);
    expect(data<ConsoleNoticeList>(await call(`/notices?q=${stamp}&page=2&size=1`)).list.map((n) => n.id)).toEqual([draft.id]);
    expect((await call('/notices?state=lost')).statusCode).toBe(422);

    // A draft is deleted; a draft has nothing to take down.
    const scrap = data<ConsoleNoticeDetail>(await call('/notices/save', { category: 'news', pinned: false, texts: [{ locale: 'en-US', title: 'scrap', body: '' }] }));
    expect(code(await call('/notices/unpublish', { id: scrap.id }))).toBe('A0395');
    expect((await call('/notices/delete', { id: scrap.id })).statusCode).toBe(200);
    expect((await call(`/notices/detail?id=${scrap.id}`)).statusCode).toBe(404);

    const bad = async (url: string, body: unknown) => {
      const res = await call(url, body);
      return [res.statusCode, data<{ field?: string }>(res)?.field?.split('.')[0]];
    };
    expect(await bad('/notices/save', { category: 'notice', pinned: false, texts: [] })).toEqual([422, 'texts']);
    expect(await bad('/notices/save', { category: 'notice', pinned: false, texts: [texts[1], texts[1]] })).toEqual([422, 'texts']);
    expect(await bad('/notices/save', { category: 'notice', pinned: false, texts: [{ ...texts[1], title: '' }] })).toEqual([422, 'texts']);
    expect(await bad('/notices/save', { category: 'rumour', pinned: false, texts })).toEqual([422, 'category']);
    expect(await bad('/notices/publish', { id: later.id, at: 'tomorrow' })).toEqual([422, 'at']);
    expect((await call('/notices/publish', { id: 99_999_999 })).statusCode).toBe(404);

    const rows = await t.database.exec<{ action: string; object_id: string; after: { state?: string; titles?: Record<string, string> } | null }>(
      `select action, object_id, after from audit_log where object_type = 'notice' and actor = $1 and outcome = 'done' order by id`,
      [op.mail],
    );
    expect(rows.map((r) => r.action)).toEqual(['notices.create', 'notices.save', 'notices.publish', 'notices.unpublish', 'notices.create', 'notices.publish', 'notices.create', 'notices.delete']);
    expect(rows[1].after).toMatchObject({ state: 'draft', titles: { 'en-US': texts[1].title, 'ja-JP': texts[0].title } });
    // Leave nothing pinned or scheduled for the other tests of this database.
    await call('/notices/unpublish', { id: later.id });
  });
});
