// The notification centre: the caller's events, newest first (raised by the triggers of migration
// 0035, one row per event), read state and the unread count. Kinds sent to the channels only (new
// notices: born read, read on the notice page) are not listed.
import { AppError, CHANNEL_ONLY_KINDS, formatMoney, type NotificationItem, type NotificationKind, type NotificationList } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';

type Runner = Pick<Database, 'execute'>;

interface Row {
  id: string;
  kind: NotificationKind;
  params: Record<string, string | number | null>;
  link: string | null;
  created_at: string;
  read: boolean;
}

/** Amounts (amount, balance) are stored in micro-Lightning as the tables hold them; the app reads Lightning with 6 decimals. */
function paramsOut(params: Record<string, string | number | null>): NotificationItem['params'] {
  const out = { ...params };
  for (const key of ['amount', 'balance']) {
    const v = out[key];
    if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))) out[key] = formatMoney(BigInt(v));
  }
  return out;
}

const itemOf = (r: Row): NotificationItem => ({
  id: Number(r.id),
  kind: r.kind,
  params: paramsOut(r.params),
  link: r.link,
  createdAt: Date.parse(r.created_at),
  read: r.read,
});

export async function unreadNotificationsOf(db: Runner, userId: number): Promise<number> {
  const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from notifications where user_id = ${userId} and read_at is null`));
  return n;
}

export async function notificationListOf(db: Runner, userId: number, q: { unread?: 'true' | 'false'; page: number; size: number }): Promise<NotificationList> {
  const unreadOnly = q.unread === 'true' ? sql`and read_at is null` : sql``;
  const listed = sql`and kind not in (${sql.join(CHANNEL_ONLY_KINDS.map((k) => sql`${k}`), sql`, `)})`;
  const rows = rowsOf<Row>(
    await db.execute(sql`select id::text as id, kind, params, link, created_at::text as created_at, read_at is not null as read
      from notifications where user_id = ${userId} ${listed} ${unreadOnly} order by id desc limit ${q.size} offset ${(q.page - 1) * q.size}`),
  );
  const [{ total }] = rowsOf<{ total: number }>(await db.execute(sql`select count(*)::int as total from notifications where user_id = ${userId} ${listed} ${unreadOnly}`));
  return { list: rows.map(itemOf), total, unread: await unreadNotificationsOf(db, userId) };
}

/** Marks one of the caller's notifications read (NOT_FOUND for another's), or all; answers the unread left. */
export async function markNotificationsRead(db: Runner, userId: number, id?: number): Promise<number> {
  if (id !== undefined) {
    const [row] = rowsOf<{ n: number }>(await db.execute(sql`select 1 as n from notifications where id = ${id} and user_id = ${userId}`));
    if (!row) throw new AppError('NOT_FOUND', {}, 'id');
  }
  const which = id !== undefined ? sql`and id = ${id}` : sql``;
  await db.execute(sql`update notifications set read_at = now() where user_id = ${userId} and read_at is null ${which}`);
  return unreadNotificationsOf(db, userId);
}
