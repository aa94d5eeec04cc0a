// Operator commands of the notices area (wired into `npm run ops` by ops/). Texts come as flags or,
// for longer Markdown, from a file (--body-file).
import { readFileSync } from 'node:fs';
import { isLocale, NOTICE_CATEGORIES, type Locale, type NoticeCategory, type NoticeText } from '@lq/contracts';
import { flags, OpsError, printTable, type OpsCommandSet } from '../platform/ops';
import { createNotice, deleteNotice, dropNoticeText, listNotices, NoticeError, noticeTextsOf, pinNotice, publishNotice, setNoticeText, unpublishNotice } from './service';

const idOf = (arg: string | undefined, usage: string): number => {
  if (!arg || !/^\d{1,15}$/.test(arg)) throw new OpsError(usage, 2);
  return Number(arg);
};

const localeOf = (value: string | undefined): Locale => {
  if (!value || !isLocale(value)) throw new OpsError(`--locale: one of en-US, zh-TW, th-TH, vi-VN, zh-CN, ja-JP, in_ID (got "${value ?? ''}")`, 2);
  return value;
};

function textOf(values: Record<string, string>): NoticeText {
  if (values.title === undefined) throw new OpsError('--title is needed', 2);
  if ((values.body === undefined) === (values['body-file'] === undefined)) throw new OpsError('give the Markdown body with --body or --body-file (one of them)', 2);
  let body = values.body;
  if (body === undefined) {
    try {
      body = readFileSync(values['body-file'], 'utf8');
    } catch (e) {
      throw new OpsError(`--body-file: ${(e as Error).message}`, 2);
    }
  }
  return { locale: localeOf(values.locale), title: values.title, body };
}

/** Service refusals (a missing notice, a text too long, a state that forbids it) as exit code 1 with the reason. */
async function refusing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof NoticeError) throw new OpsError(e.message);
    throw e;
  }
}

const TEXT_FLAGS = ['locale', 'title', 'body', 'body-file'];

export const NOTICE_OPS: OpsCommandSet = {
  usage: `  notice:list                                 every notice: state, category, pinned, time, locales, title, reads
  notice:create --category notice|news --locale L --title T (--body MD | --body-file F) [--pin yes]
                                              a draft with its first text (publishing needs an en-US text)
  notice:text <id> --locale L --title T (--body MD | --body-file F)
                                              add or replace one locale's text (published: readers see it at once)
  notice:drop-text <id> --locale L            remove one locale's text (not en-US once published)
  notice:show <id>                            every text of a notice
  notice:publish <id> [--at 2026-12-01T09:00:00+08:00]
                                              publish now, or at a time (scheduled until then); when it goes
                                              live it is sent to the users who switched new notices on (once)
  notice:unpublish <id>                       take it down (kept, with who read it)
  notice:pin <id> yes|no                      pinned notices come first
  notice:delete <id>                          delete a draft`,
  commands: {
    'notice:list': {
      args: 0,
      async run(db, _args, out) {
        const list = await listNotices(db.db);
        if (list.length === 0) return out('no notices');
        printTable(
          [
            ['id', 'state', 'category', 'pinned', 'publish at', 'locales', 'reads', 'title'],
            ...list.map((n) => [String(n.id), n.state, n.category, n.pinned ? 'yes' : '', n.publishAt?.toISOString() ?? '', n.locales.join(','), String(n.reads), n.title]),
          ],
          out,
        );
      },
    },
    'notice:create': {
      args: -1,
      async run(db, args, out) {
        const { positional, values } = flags(args, ['category', 'pin', ...TEXT_FLAGS]);
        if (positional.length > 0) throw new OpsError('notice:create takes no positional arguments', 2);
        if (!NOTICE_CATEGORIES.includes(values.category as NoticeCategory)) throw new OpsError(`--category: notice or news (got "${values.category ?? ''}")`, 2);
        if (values.pin !== undefined && !['yes', 'no'].includes(values.pin)) throw new OpsError('--pin: yes or no', 2);
        const id = await refusing(() => createNotice(db.db, { category: values.category as NoticeCategory, pinned: values.pin === 'yes', text: textOf(values) }));
        out(`notice #${id} created as a draft (notice:publish ${id} when its texts are ready)`);
      },
    },
    'notice:text': {
      args: -1,
      async run(db, args, out) {
        const { positional, values } = flags(args, TEXT_FLAGS);
        const id = idOf(positional[0], 'notice:text <id> --locale L --title T (--body MD | --body-file F)');
        const text = textOf(values);
        await refusing(() => setNoticeText(db.db, id, text));
        out(`notice #${id}: ${text.locale} text saved`);
      },
    },
    'notice:drop-text': {
      args: -1,
      async run(db, args, out) {
        const { positional, values } = flags(args, ['locale']);
        const id = idOf(positional[0], 'notice:drop-text <id> --locale L');
        const locale = localeOf(values.locale);
        await refusing(() => dropNoticeText(db.db, id, locale));
        out(`notice #${id}: ${locale} text removed`);
      },
    },
    'notice:show': {
      args: 1,
      async run(db, args, out) {
        const id = idOf(args[0], 'notice:show <id>');
        for (const t of await refusing(() => noticeTextsOf(db.db, id))) {
          out(`--- ${t.locale}: ${t.title}`);
          out(t.body);
        }
      },
    },
    'notice:publish': {
      args: -1,
      async run(db, args, out) {
        const { positional, values } = flags(args, ['at']);
        const id = idOf(positional[0], 'notice:publish <id> [--at ISO-8601 time with its offset]');
        let at: Date | undefined;
        if (values.at !== undefined) {
          // An instant, not a wall-clock time: the offset says which zone it is in.
          if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(values.at) || Number.isNaN(Date.parse(values.at))) {
            throw new OpsError(`--at: a time with its offset, like 2026-12-01T09:00:00+08:00 or 2026-12-01T01:00:00Z (got "${values.at}")`, 2);
          }
          at = new Date(values.at);
        }
        await refusing(() => publishNotice(db.db, id, at));
        out(at && at > new Date() ? `notice #${id} scheduled for ${at.toISOString()}` : `notice #${id} published`);
      },
    },
    'notice:unpublish': {
      args: 1,
      async run(db, args, out) {
        const id = idOf(args[0], 'notice:unpublish <id>');
        await refusing(() => unpublishNotice(db.db, id));
        out(`notice #${id} unpublished`);
      },
    },
    'notice:pin': {
      args: 2,
      async run(db, args, out) {
        const id = idOf(args[0], 'notice:pin <id> yes|no');
        if (!['yes', 'no'].includes(args[1])) throw new OpsError('notice:pin <id> yes|no', 2);
        await refusing(() => pinNotice(db.db, id, args[1] === 'yes'));
        out(`notice #${id} ${args[1] === 'yes' ? 'pinned' : 'no longer pinned'}`);
      },
    },
    'notice:delete': {
      args: 1,
      async run(db, args, out) {
        const id = idOf(args[0], 'notice:delete <id>');
        await refusing(() => deleteNotice(db.db, id));
        out(`notice #${id} deleted`);
      },
    },
  },
};
