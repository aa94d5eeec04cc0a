// Notices and news: operators write them (ops.ts), users read them (routes.ts). A reader sees the
// published notices whose time has come, pinned first then newest, each in the reader's locale or
// else in English (a notice is published only with an English text). A notice is read once opened;
// those published before the reader registered count as read unless pinned, so a new user's badge
// shows what is news to them.
import { AppError, NOTICE_FALLBACK_LOCALE, noticeText, type ConsoleNoticeDetail, type Locale, type NoticeCategory, type NoticeDetail, type NoticeItem, type NoticeList, type NoticeState, type NoticeText } from '@lq/contracts';
import { containsPattern, rowsOf, sql, type Database, type SQL } from '@lq/db';
import { noticeExcerpt, renderNoticeHtml } from './markdown';

type Runner = Pick<Database, 'execute'>;

export class NoticeError extends Error {}

// ---------------------------------------------------------------- operators

export interface NoticeSummary {
  id: number;
  category: NoticeCategory;
  state: NoticeState;
  pinned: boolean;
  publishAt: Date | null;
  locales: string[];
  title: string;
  reads: number;
}

/** A stored status and time as the state an operator reads. */
export function noticeStateOf(status: string, publishAt: Date | null, now: Date = new Date()): NoticeState {
  if (status === 'published') return publishAt && publishAt > now ? 'scheduled' : 'published';
  return status as NoticeState;
}

/** Checks one locale's text as the API would (title 1–120 characters, body up to 20,000). */
export function checkedText(text: NoticeText): NoticeText {
  const parsed = noticeText.safeParse(text);
  if (!parsed.success) throw new NoticeError(`${text.locale}: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'text'} ${i.message}`).join('; ')}`);
  return parsed.data;
}

export async function createNotice(db: Database, input: { category: NoticeCategory; pinned?: boolean; text: NoticeText }): Promise<number> {
  const text = checkedText(input.text);
  return db.transaction(async (tx) => {
    const [{ id }] = rowsOf<{ id: string }>(
      await tx.execute(sql`insert into notices (category, pinned) values (${input.category}, ${input.pinned ?? false}) returning id::text as id`),
    );
    await putText(tx, Number(id), text);
    return Number(id);
  });
}

async function putText(db: Runner, id: number, text: NoticeText): Promise<void> {
  await db.execute(sql`insert into notice_texts (notice_id, locale, title, body) values (${id}, ${text.locale}, ${text.title}, ${text.body})
    on conflict (notice_id, locale) do update set title = excluded.title, body = excluded.body, updated_at = now()`);
}

async function requireNotice(db: Runner, id: number): Promise<{ status: string; publish_at: Date | null }> {
  const [row] = rowsOf<{ status: string; publish_at: string | null }>(await db.execute(sql`select status, publish_at::text as publish_at from notices where id = ${id}`));
  if (!row) throw new NoticeError(`no notice #${id}`);
  return { status: row.status, publish_at: row.publish_at ? new Date(row.publish_at) : null };
}

/** Adds or replaces one locale's text (also of a published notice: readers see the change at once). */
export async function setNoticeText(db: Database, id: number, text: NoticeText): Promise<void> {
  const checked = checkedText(text);
  await requireNotice(db, id);
  await putText(db, id, checked);
  await db.execute(sql`update notices set updated_at = now() where id = ${id}`);
}

/** Drops one locale's text; the English one stays as long as the notice is not a draft. */
export async function dropNoticeText(db: Database, id: number, locale: Locale): Promise<void> {
  const notice = await requireNotice(db, id);
  if (locale === NOTICE_FALLBACK_LOCALE && notice.status !== 'draft') throw new NoticeError(`notice #${id} is ${notice.status}: its ${NOTICE_FALLBACK_LOCALE} text is what other locales fall back to`);
  await db.execute(sql`delete from notice_texts where notice_id = ${id} and locale = ${locale}`);
}

/** Publishes now or at `at` (then it reads as scheduled until that time). Needs the English text. */
export async function publishNotice(db: Database, id: number, at?: Date): Promise<void> {
  await requireNotice(db, id);
  const [fallback] = rowsOf<{ n: number }>(await db.execute(sql`select 1 as n from notice_texts where notice_id = ${id} and locale = ${NOTICE_FALLBACK_LOCALE}`));
  if (!fallback) throw new NoticeError(`notice #${id} has no ${NOTICE_FALLBACK_LOCALE} text, which readers without their own locale see: add it first`);
  const when = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  await db.execute(sql`update notices set status = 'published', publish_at = ${when}, updated_at = now() where id = ${id}`);
}

/** Takes a notice down (kept; publishing it again shows it again, with its reads). */
export async function unpublishNotice(db: Database, id: number): Promise<void> {
  const notice = await requireNotice(db, id);
  if (notice.status === 'draft') throw new NoticeError(`notice #${id} is a draft: nothing to unpublish`);
  await db.execute(sql`update notices set status = 'unpublished', updated_at = now() where id = ${id}`);
}

export async function pinNotice(db: Database, id: number, pinned: boolean): Promise<void> {
  await requireNotice(db, id);
  await db.execute(sql`update notices set pinned = ${pinned}, updated_at = now() where id = ${id}`);
}

/** Deletes a draft (a notice once published is unpublished instead: its reads stay). */
export async function deleteNotice(db: Database, id: number): Promise<void> {
  const notice = await requireNotice(db, id);
  if (notice.status !== 'draft') throw new NoticeError(`notice #${id} is ${noticeStateOf(notice.status, notice.publish_at)}: unpublish it instead`);
  await db.execute(sql`delete from notices where id = ${id}`);
}

/** Every notice, newest first, with its state, locales and how many users read it. */
export async function listNotices(db: Runner, now: Date = new Date()): Promise<NoticeSummary[]> {
  const rows = rowsOf<{ id: string; category: NoticeCategory; status: string; pinned: boolean; publish_at: string | null; locales: string[]; title: string; reads: number }>(
    await db.execute(sql`select n.id::text as id, n.category, n.status, n.pinned, n.publish_at::text as publish_at,
        array(select t.locale from notice_texts t where t.notice_id = n.id order by t.locale) as locales,
        coalesce((select t.title from notice_texts t where t.notice_id = n.id order by t.locale <> ${NOTICE_FALLBACK_LOCALE}, t.locale limit 1), '') as title,
        (select count(*)::int from notice_reads r where r.notice_id = n.id) as reads
      from notices n order by n.id desc`),
  );
  return rows.map((r) => {
    const publishAt = r.publish_at ? new Date(r.publish_at) : null;
    return { id: Number(r.id), category: r.category, state: noticeStateOf(r.status, publishAt, now), pinned: r.pinned, publishAt, locales: r.locales, title: r.title, reads: r.reads };
  });
}

/**
 * The console's notice list: by state (scheduled and published told apart by the time), category
 * and a part of any title, newest or oldest first, a page at a time.
 */
export async function noticesForConsole(
  db: Runner,
  q: { state?: NoticeState; category?: NoticeCategory; q?: string; sort: 'id' | '-id'; page: number; size: number },
): Promise<{ list: (Omit<NoticeSummary, 'publishAt'> & { publishAt: number | null })[]; total: number }> {
  const parts: SQL[] = [sql`true`];
  if (q.state === 'scheduled') parts.push(sql`n.status = 'published' and n.publish_at > now()`);
  else if (q.state === 'published') parts.push(sql`n.status = 'published' and n.publish_at <= now()`);
  else if (q.state) parts.push(sql`n.status = ${q.state}`);
  if (q.category) parts.push(sql`n.category = ${q.category}`);
  if (q.q) {
    const like = containsPattern(q.q);
    parts.push(sql`exists (select 1 from notice_texts t where t.notice_id = n.id and t.title ilike ${like})`);
  }
  const where = sql.join(parts, sql` and `);
  const rows = rowsOf<{ id: string; category: NoticeCategory; status: string; pinned: boolean; publish_at: string | null; locales: string[]; title: string; reads: number }>(
    await db.execute(sql`select n.id::text as id, n.category, n.status, n.pinned, n.publish_at::text as publish_at,
        array(select t.locale from notice_texts t where t.notice_id = n.id order by t.locale) as locales,
        coalesce((select t.title from notice_texts t where t.notice_id = n.id order by t.locale <> ${NOTICE_FALLBACK_LOCALE}, t.locale limit 1), '') as title,
        (select count(*)::int from notice_reads r where r.notice_id = n.id) as reads
      from notices n where ${where} order by ${q.sort === 'id' ? sql`n.id` : sql`n.id desc`} limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from notices n where ${where}`));
  const now = new Date();
  return {
    total,
    list: rows.map((r) => {
      const publishAt = r.publish_at ? new Date(r.publish_at) : null;
      return { id: Number(r.id), category: r.category, state: noticeStateOf(r.status, publishAt, now), pinned: r.pinned, publishAt: publishAt?.getTime() ?? null, locales: r.locales, title: r.title, reads: r.reads };
    }),
  };
}

/** One notice's texts (every locale), for an operator. */
export async function noticeTextsOf(db: Runner, id: number): Promise<NoticeText[]> {
  await requireNotice(db, id);
  return rowsOf<NoticeText>(await db.execute(sql`select locale, title, body from notice_texts where notice_id = ${id} order by locale`));
}

// ---------------------------------------------------------------- the console's editor

/** One notice with every text, as the console's editor shows it; 404 for none. */
export async function noticeForConsole(db: Runner, id: number): Promise<ConsoleNoticeDetail> {
  const [row] = rowsOf<{ category: NoticeCategory; status: string; pinned: boolean; publish_at: string | null }>(
    await db.execute(sql`select category, status, pinned, publish_at::text as publish_at from notices where id = ${id}`),
  );
  if (!row) throw new AppError('NOT_FOUND', {}, 'id');
  const publishAt = row.publish_at ? new Date(row.publish_at) : null;
  const texts = rowsOf<NoticeText>(await db.execute(sql`select locale, title, body from notice_texts where notice_id = ${id} order by locale`));
  return { id, category: row.category, state: noticeStateOf(row.status, publishAt), pinned: row.pinned, publishAt: publishAt?.getTime() ?? null, texts };
}

/**
 * Saves a notice from the editor: a new draft, or an existing notice's category, pin and texts (the
 * locales sent become its locales; a published one keeps its English text). One transaction.
 */
export async function saveNoticeFromConsole(
  db: Database,
  body: { id?: number; category: NoticeCategory; pinned: boolean; texts: NoticeText[] },
): Promise<{ id: number; before: ConsoleNoticeDetail | null; after: ConsoleNoticeDetail }> {
  const texts = body.texts.map(checkedText);
  return db.transaction(async (tx) => {
    let id = body.id;
    let before: ConsoleNoticeDetail | null = null;
    if (id === undefined) {
      const [{ id: made }] = rowsOf<{ id: string }>(await tx.execute(sql`insert into notices (category, pinned) values (${body.category}, ${body.pinned}) returning id::text as id`));
      id = Number(made);
    } else {
      await tx.execute(sql`select id from notices where id = ${id} for update`);
      before = await noticeForConsole(tx, id);
      if (before.state !== 'draft' && !texts.some((x) => x.locale === NOTICE_FALLBACK_LOCALE)) throw new AppError('NOTICE_NEEDS_ENGLISH', {}, 'texts');
      await tx.execute(sql`update notices set category = ${body.category}, pinned = ${body.pinned}, updated_at = now() where id = ${id}`);
      const kept = texts.map((x) => x.locale);
      await tx.execute(sql`delete from notice_texts where notice_id = ${id} and locale not in (${sql.join(kept.map((l) => sql`${l}`), sql`, `)})`);
    }
    for (const text of texts) await putText(tx, id, text);
    return { id, before, after: await noticeForConsole(tx, id) };
  });
}

/** Publishes from the console: 404 for none, A0394 without the English text. */
export async function publishFromConsole(db: Database, id: number, at?: Date): Promise<ConsoleNoticeDetail> {
  const notice = await noticeForConsole(db, id);
  if (!notice.texts.some((x) => x.locale === NOTICE_FALLBACK_LOCALE)) throw new AppError('NOTICE_NEEDS_ENGLISH', {}, 'id');
  await publishNotice(db, id, at);
  return noticeForConsole(db, id);
}

/** Takes a published (or scheduled) notice down; a draft has nothing to take down (A0395). */
export async function unpublishFromConsole(db: Database, id: number): Promise<ConsoleNoticeDetail> {
  const notice = await noticeForConsole(db, id);
  if (notice.state === 'draft') throw new AppError('NOTICE_STATE', { state: notice.state }, 'id');
  await unpublishNotice(db, id);
  return noticeForConsole(db, id);
}

/** Deletes a draft; a notice once published is taken down instead, its reads kept (A0395). */
export async function deleteFromConsole(db: Database, id: number): Promise<ConsoleNoticeDetail> {
  const notice = await noticeForConsole(db, id);
  if (notice.state !== 'draft') throw new AppError('NOTICE_STATE', { state: notice.state }, 'id');
  await deleteNotice(db, id);
  return notice;
}

// ---------------------------------------------------------------- readers

/** The notices a reader sees now. */
const visible = sql`n.status = 'published' and n.publish_at <= now()`;

/** Whether `userId` has read notice `n` (those from before they registered count, unless pinned). */
const readBy = (userId: number | null): SQL =>
  userId === null
    ? sql`false`
    : sql`(exists (select 1 from notice_reads r where r.user_id = ${userId} and r.notice_id = n.id)
        or (not n.pinned and n.publish_at < (select u.created_at from users u where u.id = ${userId})))`;

interface ReaderRow {
  id: string;
  category: NoticeCategory;
  pinned: boolean;
  publish_at: string;
  locale: Locale;
  title: string;
  body: string;
  read: boolean;
}

/** The reader's text, else the English one: one row per notice. */
const readerColumns = (locale: Locale, userId: number | null): SQL => sql`n.id::text as id, n.category, n.pinned, n.publish_at::text as publish_at,
  coalesce(t.locale, f.locale) as locale, coalesce(t.title, f.title) as title, coalesce(t.body, f.body) as body, ${readBy(userId)} as read`;
const readerJoins = (locale: Locale): SQL => sql`left join notice_texts t on t.notice_id = n.id and t.locale = ${locale}
  left join notice_texts f on f.notice_id = n.id and f.locale = ${NOTICE_FALLBACK_LOCALE}`;

const itemOf = (r: ReaderRow): NoticeItem => ({
  id: Number(r.id),
  category: r.category,
  pinned: r.pinned,
  publishedAt: Date.parse(r.publish_at),
  locale: r.locale,
  title: r.title,
  excerpt: noticeExcerpt(r.body),
  read: r.read,
});

/** How many visible notices `userId` has not read. */
export async function unreadCountOf(db: Runner, userId: number): Promise<number> {
  const [{ unread }] = rowsOf<{ unread: number }>(await db.execute(sql`select count(*)::int as unread from notices n where ${visible} and not ${readBy(userId)}`));
  return unread;
}

/** A page of the notices `userId` (null: a guest) sees, pinned first, then newest. */
export async function noticeListOf(db: Runner, userId: number | null, locale: Locale, q: { category?: NoticeCategory; page: number; size: number }): Promise<NoticeList> {
  const category = q.category ? sql`and n.category = ${q.category}` : sql``;
  const rows = rowsOf<ReaderRow>(
    await db.execute(sql`select ${readerColumns(locale, userId)} from notices n ${readerJoins(locale)}
      where ${visible} ${category} order by n.pinned desc, n.publish_at desc, n.id desc limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from notices n where ${visible} ${category}`));
  return { list: rows.map(itemOf), total, unread: userId === null ? 0 : await unreadCountOf(db, userId) };
}

/** One visible notice, its body rendered; NOT_FOUND for a draft, a scheduled or an unpublished one. */
export async function noticeDetailOf(db: Runner, userId: number | null, locale: Locale, id: number): Promise<NoticeDetail> {
  const [row] = rowsOf<ReaderRow>(await db.execute(sql`select ${readerColumns(locale, userId)} from notices n ${readerJoins(locale)} where n.id = ${id} and ${visible}`));
  if (!row) throw new AppError('NOT_FOUND', {}, 'id');
  const { excerpt: _excerpt, ...item } = itemOf(row);
  return { ...item, html: renderNoticeHtml(row.body) };
}

/** Marks one visible notice read (or every visible one, without `id`); answers what is left unread. */
export async function markNoticesRead(db: Runner, userId: number, id?: number): Promise<number> {
  if (id !== undefined) {
    const [row] = rowsOf<{ n: number }>(await db.execute(sql`select 1 as n from notices n where n.id = ${id} and ${visible}`));
    if (!row) throw new AppError('NOT_FOUND', {}, 'id');
  }
  const which = id !== undefined ? sql`and n.id = ${id}` : sql``;
  await db.execute(sql`insert into notice_reads (user_id, notice_id) select ${userId}, n.id from notices n where ${visible} ${which}
    on conflict (user_id, notice_id) do nothing`);
  return unreadCountOf(db, userId);
}
