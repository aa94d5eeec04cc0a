// The Telegram channel: the bot (grammy) that sends notifications and links chats. A user asks for
// a one-time deep link (t.me/<bot>?start=<token>, 15 minutes); opening it sends /start <token> to
// the bot, whose webhook links that chat to the user; /stop (or unlinking in the app) ends it.
// Only the token's SHA-256 is kept. The Bot API's address is configurable (a stand-in in tests).
import { createHash, randomBytes } from 'node:crypto';
import { Bot, GrammyError, HttpError, type Api, type Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { parseLocale, resolveLocale, TELEGRAM_LINK_MINUTES, translate, type Locale } from '@lq/contracts';
import { rowsOf, sql, type Database } from '@lq/db';
import type { Config } from '../platform/config';

type Runner = Pick<Database, 'execute'>;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** What a failed send means for the delivery: try again later, or give up (and why). */
export type SendFailure = { retry: true; afterSeconds?: number; error: string } | { retry: false; unlink: boolean; error: string };

export interface TelegramChannel {
  readonly botName: string;
  readonly api: Api;
  /** The bot whose webhook handles /start and /stop (see notifications/routes.ts). */
  readonly bot: Bot;
  send(chatId: string, text: string): Promise<void>;
}

/** Classifies a Bot API failure: 429 and 5xx and the network retry; 403 (blocked, left) unlinks; other 4xx give up. */
export function classifyTelegramError(err: unknown): SendFailure {
  if (err instanceof GrammyError) {
    const error = `${err.error_code}: ${err.description}`.slice(0, 300);
    if (err.error_code === 429) return { retry: true, afterSeconds: err.parameters.retry_after, error };
    if (err.error_code >= 500) return { retry: true, error };
    return { retry: false, unlink: err.error_code === 403, error };
  }
  // HttpError: the request never got an answer. Its message names the method, never the token.
  if (err instanceof HttpError) return { retry: true, error: `network: ${err.message}`.slice(0, 300) };
  return { retry: true, error: String((err as Error)?.message ?? err).slice(0, 300) };
}

/** The bot of TELEGRAM_BOT_TOKEN, or undefined when Telegram is not configured. */
export function telegramChannel(config: Config, db: Database): TelegramChannel | undefined {
  const token = config.TELEGRAM_BOT_TOKEN;
  const botName = config.TELEGRAM_BOT_NAME;
  if (!token || !botName) return undefined;
  // What getMe would say, from the token and the configured name: no call to Telegram before the first update.
  const botInfo = {
    id: Number(token.split(':')[0]),
    is_bot: true,
    first_name: botName,
    username: botName,
    can_join_groups: false,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
  } as UserFromGetMe;
  const bot = new Bot(token, { botInfo, client: { apiRoot: config.TELEGRAM_API_ROOT.replace(/\/+$/, '') } });
  const localeOf = (code: string | undefined): Locale => parseLocale(code) ?? 'en-US';
  // A reply that cannot be sent is let go: the update itself is done (a 500 would make Telegram
  // deliver it again, and a used token would then answer "expired"). Database errors still fail it.
  const reply = async (ctx: Context, text: string) => void (await ctx.reply(text).catch(() => undefined));

  bot.command('start', async (ctx) => {
    const token = ctx.match.trim();
    if (!token) return reply(ctx, translate(localeOf(ctx.from?.language_code), 'telegram.help'));
    const linked = await consumeLinkToken(db, token, String(ctx.chat.id));
    if (!linked) return reply(ctx, translate(localeOf(ctx.from?.language_code), 'telegram.linkExpired'));
    await reply(ctx, translate(linked.locale, 'telegram.linked', { mail: linked.mail }));
  });
  bot.command('stop', async (ctx) => {
    const locale = await unlinkChat(db, String(ctx.chat.id));
    await reply(ctx, translate(locale ?? localeOf(ctx.from?.language_code), 'telegram.unlinked'));
  });
  bot.on('message', async (ctx) => {
    await reply(ctx, translate(localeOf(ctx.from?.language_code), 'telegram.help'));
  });

  return {
    botName,
    api: bot.api,
    bot,
    async send(chatId, text) {
      await bot.api.sendMessage(chatId, text, { link_preview_options: { is_disabled: true } });
    },
  };
}

/** A new one-time link token for the user (the previous one stops working); the chat stays linked until the token is used. */
export async function createLinkToken(db: Runner, userId: number): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + TELEGRAM_LINK_MINUTES * 60_000);
  await db.execute(sql`insert into telegram_links (user_id, token_hash, token_expires_at) values (${userId}, ${tokenHash(token)}, ${expiresAt.toISOString()})
    on conflict (user_id) do update set token_hash = excluded.token_hash, token_expires_at = excluded.token_expires_at`);
  return { token, expiresAt };
}

/** Links `chatId` to the token's user if the token is current (once); answers the user's mail and locale. */
export async function consumeLinkToken(db: Runner, token: string, chatId: string): Promise<{ mail: string; locale: Locale } | undefined> {
  if (!/^[\w-]{16,64}$/.test(token)) return undefined;
  const [row] = rowsOf<{ mail: string; locale: string }>(
    await db.execute(sql`with linked as (
        update telegram_links set chat_id = ${chatId}, linked_at = now(), token_hash = null, token_expires_at = null
        where token_hash = ${tokenHash(token)} and token_expires_at > now() returning user_id)
      select u.mail, u.locale from linked join users u on u.id = linked.user_id`),
  );
  return row ? { mail: row.mail, locale: resolveLocale(row.locale) } : undefined;
}

/** Unlinks a chat (its /stop, or Telegram answering 403: the user blocked the bot); answers the locale of a user it was linked to. */
export async function unlinkChat(db: Runner, chatId: string): Promise<Locale | undefined> {
  const [row] = rowsOf<{ locale: string }>(
    await db.execute(sql`with gone as (delete from telegram_links where chat_id = ${chatId} returning user_id)
      select u.locale from gone join users u on u.id = gone.user_id limit 1`),
  );
  return row ? resolveLocale(row.locale) : undefined;
}

export async function unlinkUser(db: Runner, userId: number): Promise<void> {
  await db.execute(sql`delete from telegram_links where user_id = ${userId}`);
}

export async function telegramLinkOf(db: Runner, userId: number): Promise<{ linkedAt: number } | undefined> {
  const [row] = rowsOf<{ linked_at: string }>(
    await db.execute(sql`select linked_at::text as linked_at from telegram_links where user_id = ${userId} and chat_id is not null`),
  );
  return row ? { linkedAt: Date.parse(row.linked_at) } : undefined;
}
