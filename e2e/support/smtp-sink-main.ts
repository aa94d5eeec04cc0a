import { startSmtpSink } from './smtp-sink';

const port = Number(process.env.SMTP_PORT);
const mailbox = process.env.MAILBOX_FILE;
if (!port || !mailbox) throw new Error('SMTP_PORT and MAILBOX_FILE are required');
await startSmtpSink(port, mailbox);
console.log(`smtp sink on 127.0.0.1:${port} → ${mailbox}`);
