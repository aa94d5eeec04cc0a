// A real SMTP server on 127.0.0.1 that appends every received mail to a JSON-lines file, so
// tests (in other processes) can read verification codes.
import { appendFileSync } from 'node:fs';
import { SMTPServer } from 'smtp-server';

export interface SinkMail {
  to: string[];
  subject: string;
  text: string;
  receivedAt: number;
}

export function startSmtpSink(port: number, mailboxFile: string): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail: SinkMail = {
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          ...decodeSinglePartMail(Buffer.concat(chunks).toString('latin1')),
          receivedAt: Date.now(),
        };
        appendFileSync(mailboxFile, JSON.stringify(mail) + '\n');
        callback();
      });
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** Decodes the single text part nodemailer sends (base64 or quoted-printable, UTF-8). */
function decodeSinglePartMail(raw: string): { subject: string; text: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).trim();
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body, 'base64')
      : encoding === 'quoted-printable'
        ? Buffer.from(
            body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          )
        : Buffer.from(body, 'latin1');
  const subject = header('Subject').replace(/=\?utf-8\?B\?([^?]*)\?=/gi, (_, b64: string) =>
    Buffer.from(b64, 'base64').toString('utf8'),
  );
  return { subject, text: bytes.toString('utf8') };
}
