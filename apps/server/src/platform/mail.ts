import { rowsOf, sql } from '@lq/db';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, resolveLocale, translate } from '@lq/contracts';
import { withoutUrlSecrets } from './urls';
import { mailOutbox, type Database } from '@lq/db';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  /** The mail carries a code good until then: the outbox forgets its words by then, the log never has them. */
  secretUntil?: Date;
}

/** The outbox row's words once they may go: the text always, the subject too when it may hold the code. */
export const FORGET_WORDS = sql.raw(`text = null, subject = case when secret_until is not null then null else subject end`);

/**
 * Every mail is written to the outbox first. With SMTP_URL it is then sent through nodemailer
 * (the outcome recorded on the row, and its words forgotten once delivered); without, it stays
 * there for `npm run ops -- mail:last` — one carrying a code only while the code is good
 * (`forgetExpiredSecrets`, every minute) — and goes to the log, but for a code's words.
 */
export class Mailer {
  private readonly transport: Transporter | undefined;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    private readonly from: string,
    smtpUrl: string | undefined,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  }

  get delivers(): boolean {
    return this.transport !== undefined;
  }

  /**
   * The recipient's anti-phishing phrase (user/api/security/anti-phishing) on the mail's first line,
   * in their language: every mail the platform sends them carries it, so one without it is not ours.
   */
  private async withPhrase(mail: OutgoingMail): Promise<OutgoingMail> {
    const [user] = rowsOf<{ phrase: string | null; locale: string }>(
      await this.db.execute(sql`select anti_phishing_phrase as phrase, locale from users where mail = ${mail.to.trim().toLowerCase()} limit 1`),
    );
    if (!user?.phrase) return mail;
    const line = translate(resolveLocale(user.locale), 'mail.antiPhishing', { phrase: user.phrase });
    return { ...mail, text: `${line}\n\n${mail.text}` };
  }

  async send(plain: OutgoingMail): Promise<void> {
    const { secretUntil, ...mail } = await this.withPhrase(plain);
    const [row] = await this.db.insert(mailOutbox).values({ ...mail, secretUntil }).returning({ id: mailOutbox.id });
    if (!this.transport) {
      if (secretUntil) this.log.info({ mail: { to: mail.to } }, `mail with a code kept in the outbox (no SMTP_URL): npm run ops -- mail:last ${mail.to}`);
      else this.log.info({ mail: { to: mail.to, subject: mail.subject, text: mail.text } }, 'mail kept in the outbox (no SMTP_URL)');
      return;
    }
    try {
      await this.transport.sendMail({ from: this.from, ...mail });
      await this.db.execute(sql`update mail_outbox set sent_at = now(), ${FORGET_WORDS} where id = ${row.id}`);
    } catch (err) {
      this.log.error({ err, to: mail.to }, 'mail delivery failed');
      // A code that failed to go out is void (its sender forgets it): so are its words.
      await this.db.execute(sql`update mail_outbox set error = ${withoutUrlSecrets(String((err as Error).message)).slice(0, 500)}${secretUntil ? sql`, ${FORGET_WORDS}` : sql``} where id = ${row.id}`);
      throw new AppError('MAIL_FAILED');
    }
  }

  /**
   * Sends a mail the caller already keeps in the outbox (the notification delivery, which retries
   * the same row): false without SMTP_URL (the mail stays in the outbox); throws when SMTP fails.
   */
  async transmit(mail: OutgoingMail): Promise<boolean> {
    if (!this.transport) return false;
    await this.transport.sendMail({ from: this.from, ...(await this.withPhrase(mail)) });
    return true;
  }

  close() {
    this.transport?.close();
  }
}

/** Forgets the words of undelivered mails whose code has expired (the embedded demo's mail:last). */
export async function forgetExpiredSecrets(db: Database): Promise<number> {
  return rowsOf(await db.execute(sql`update mail_outbox set subject = null, text = null where secret_until <= now() and text is not null returning id`)).length;
}
