// Security notices (issue 52 item 7): what could be someone else in the account, told in the
// notification centre and always by e-mail (ALWAYS_MAILED_KINDS; nobody can switch them off).
// Raised in the transaction of the change they tell of, as the centre's triggers raise theirs: the
// delivery job mails them later, so a change never waits on SMTP and is never told twice.
import { randomUUID } from 'node:crypto';
import { rowsOf, sql, type Database } from '@lq/db';
import type { NotificationKind } from '@lq/contracts';

type SecurityKind = Extract<NotificationKind, `security.${string}`>;

/**
 * One notice; `key` makes it once per event (a withdrawal's id, say); without one each call is
 * its own event.
 */
export async function raiseSecurityNotice(
  db: Database,
  userId: number,
  kind: SecurityKind,
  params: Record<string, string | number> = {},
  link: string | null = null,
  key: string = randomUUID(),
): Promise<void> {
  await db.execute(sql`select notify_user(${userId}, ${kind}, ${`${kind}:${userId}:${key}`}, ${JSON.stringify(params)}::jsonb, ${link})`);
}

/** A sign-in's device as the notice names it: the browser's User-Agent, shortened. */
export const deviceOf = (userAgent: string | undefined) => (userAgent?.trim() ? userAgent.trim().slice(0, 120) : 'unknown device');

/**
 * Tells of a sign-in from a device (User-Agent) none of the user's sessions had: before the new
 * session is written, in its transaction.
 */
export async function noticeNewDevice(db: Database, userId: number, ip: string, userAgent: string | undefined): Promise<void> {
  const seen = rowsOf(await db.execute(sql`select 1 from sessions where user_id = ${userId} and user_agent is not distinct from ${userAgent?.slice(0, 300) ?? null} limit 1`));
  if (seen.length > 0) return;
  await raiseSecurityNotice(db, userId, 'security.signIn', { device: deviceOf(userAgent), ip });
}
