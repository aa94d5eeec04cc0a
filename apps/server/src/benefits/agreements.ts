// Agreements a purchase needs (spec §2 pages/agreement/monthEquity, autoSubscribe): the monthly
// benefit agreement before the first pack, the auto-subscribe agreement before auto-renew is
// switched on. What counts is the version in force (AGREEMENT_VERSIONS): a new text is accepted again.
import { AGREEMENT_VERSIONS, AGREEMENTS, AppError, type Agreement, type EquityAgreementAcceptBody, type EquityAgreements } from '@lq/contracts';
import { rowsOf, sql, type Database, type SQL } from '@lq/db';

type Runner = Pick<Database, 'execute'>;

export async function agreementsOf(db: Runner, userId: number): Promise<EquityAgreements> {
  const rows = rowsOf<{ agreement: Agreement; version: string; accepted_at: Date | string }>(
    await db.execute(sql`select agreement, version, accepted_at from agreement_acceptances where user_id = ${userId}`),
  );
  const state = (agreement: Agreement) => {
    const version = AGREEMENT_VERSIONS[agreement];
    const row = rows.find((r) => r.agreement === agreement && r.version === version);
    return { version, accepted: !!row, acceptedAt: row ? new Date(row.accepted_at).getTime() : null };
  };
  return Object.fromEntries(AGREEMENTS.map((a) => [a, state(a)])) as EquityAgreements;
}

/** Records that the caller accepted the version in force (again: the first time is kept). */
export async function acceptAgreement(db: Runner, userId: number, body: EquityAgreementAcceptBody): Promise<EquityAgreements> {
  if (body.version !== AGREEMENT_VERSIONS[body.agreement]) throw new AppError('AGREEMENT_VERSION', { agreement: body.agreement }, 'version');
  await db.execute(sql`insert into agreement_acceptances (user_id, agreement, version) values (${userId}, ${body.agreement}, ${body.version}) on conflict do nothing`);
  return agreementsOf(db, userId);
}

/** Whether the user accepted the version of `agreement` in force, as one SQL expression. */
export const acceptedSql = (userId: number, agreement: Agreement): SQL =>
  sql`exists (select 1 from agreement_acceptances where user_id = ${userId} and agreement = ${agreement} and version = ${AGREEMENT_VERSIONS[agreement]})`;

export const agreementRequired = (agreement: Agreement) => new AppError('AGREEMENT_REQUIRED', { agreement }, 'agreement');

export async function requireAccepted(db: Runner, userId: number, agreement: Agreement): Promise<void> {
  const [row] = rowsOf<{ accepted: boolean }>(await db.execute(sql`select ${acceptedSql(userId, agreement)} as accepted`));
  if (!row?.accepted) throw agreementRequired(agreement);
}
