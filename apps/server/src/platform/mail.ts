import { eq, rowsOf, sql } from '@lq/db';
import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, resolveLocale, translate } from '@lq/contracts';
import { mailOutbox, type Database } from '@lq/db';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Every mail is written to the outbox first. With SMTP_URL it is then sent through nodemailer
 * (the outcome recorded on the row); without, it goes to the log so a local user can read it.
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
    const mail = await this.withPhrase(plain);
    const [row] = await this.db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
    if (!this.transport) {
      this.log.info(
        { mail: { to: mail.to, subject: mail.subject, text: mail.text } },
        'mail kept in the outbox (no SMTP_URL)',
      );
      return;
    }
    try {
      await this.transport.sendMail({ from: this.from, ...mail });
      await this.db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
    } catch (err) {
      this.log.error({ err, to: mail.to }, 'mail delivery failed');
      await this.db
        .update(mailOutbox)
        .set({ error: String((err as Error).message).slice(0, 500) })
        .where(eq(mailOutbox.id, row.id));
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
