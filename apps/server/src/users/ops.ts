// Operator commands of the users area (wired into `npm run ops` by ops/).
import { USER_LEVELS, type UserLevel } from '@lq/contracts';
import { OpsError, printTable, type OpsCommandSet } from '../platform/ops';
import { setUserLevel } from './service';
import { resetTwoFactorByOperator } from './two-factor';

export const USER_OPS: OpsCommandSet = {
  usage: `  user:list                                   list users (newest first)
  user:set-level <email> <none|VIP1…VIP5>     set a user's level at once (VIP4, VIP5: grants, for dividends);
                                              the machine's owner's: the console asks a second
                                              operator for VIP2 and above
  user:2fa-reset <email>                      two-step off for a user who lost app and recovery codes
                                              (after checking who asks, out of band): the security
                                              lock starts, sessions end, the owner is told
  mail:last <email>                           print the last mail to an address while the outbox keeps
                                              it: until delivered, a code only while it is good`,
  commands: {
    'user:list': {
      args: 0,
      async run(db, _args, out) {
        const rows = await db.exec<Record<string, string>>(
          `select u.mail, u.user_code, u.user_level, coalesce(u.nickname, '') as nickname, coalesce(r.user_code, '') as referrer,
                  to_char(u.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as created
             from users u left join users r on r.id = u.referrer_id order by u.id desc limit 1000`,
        );
        if (rows.length === 0) return out('no users');
        const cols = ['mail', 'user_code', 'user_level', 'nickname', 'referrer', 'created'];
        printTable([cols, ...rows.map((r) => cols.map((c) => String(r[c])))], out);
      },
    },
    'user:set-level': {
      args: 2,
      async run(db, [email, level], out, _config, audit) {
        if (!(USER_LEVELS as readonly string[]).includes(level)) {
          throw new OpsError(`level must be one of ${USER_LEVELS.join(', ')} (got "${level}")`, 2);
        }
        const changed = await setUserLevel(db.db, { mail: email }, level as UserLevel, { requestedBy: audit?.actor ?? 'ops' });
        if (!changed) throw new OpsError(`no user with e-mail ${email}`);
        audit?.object('user', changed.id).change({ level: changed.fromLevel }, { level });
        out(`${changed.mail}: level ${level}`);
      },
    },
    'user:2fa-reset': {
      args: 1,
      async run(db, [email], out, _config, audit) {
        const done = await resetTwoFactorByOperator(db.db, email);
        if (!done) throw new OpsError(`no user with e-mail ${email}`);
        audit?.object('user', done.id).change({ twoFactor: done.wasOn }, { twoFactor: false });
        out(`${email.trim().toLowerCase()}: two-step ${done.wasOn ? 'turned off' : 'was off'}; sessions ended, withdrawals held for 24 hours, the owner told`);
      },
    },
    'mail:last': {
      args: 1,
      async run(db, [email], out) {
        const rows = await db.exec<Record<string, string | null>>(
          `select "to", subject, case when secret_until <= now() then null else text end as text, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as created,
                  sent_at is not null as sent, secret_until is not null as secret, error
             from mail_outbox where "to" = $1 order by id desc limit 1`,
          [email.trim().toLowerCase()],
        );
        const m = rows[0];
        if (!m) throw new OpsError(`no mail to ${email}`);
        out(`To: ${m.to}`);
        out(`Date: ${m.created} UTC${m.error ? `  (delivery failed: ${m.error})` : ''}`);
        // The outbox keeps a mail's words only until it is delivered, and a code's only while it is good.
        if (m.text === null) {
          out(m.sent ? '(delivered: its words are not kept)' : '(its code has expired: its words are not kept)');
          return;
        }
        out(`Subject: ${m.subject}`);
        out('');
        out(String(m.text));
      },
    },
  },
};
