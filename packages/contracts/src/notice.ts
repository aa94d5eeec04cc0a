// Notices and news (spec §2 pages/notice/notice; business.md "Notices, notifications, operators"):
// written by operators per locale (title + Markdown body), shown to every user in their language
// (English when the notice has no text in it), pinned first, read when opened.
import { z } from 'zod';
import { LOCALES } from './locales';

const idParam = z.coerce.number({ error: 'validation.invalidType' }).int().positive().max(Number.MAX_SAFE_INTEGER);

/** notice: platform announcements; news: market and product news. */
export const NOTICE_CATEGORIES = ['notice', 'news'] as const;
export type NoticeCategory = (typeof NOTICE_CATEGORIES)[number];

/**
 * draft: being written, seen by nobody; scheduled: published with a time still to come;
 * published: seen by users; unpublished: taken down (kept, and can be published again).
 */
export const NOTICE_STATES = ['draft', 'scheduled', 'published', 'unpublished'] as const;
export type NoticeState = (typeof NOTICE_STATES)[number];

/** The locale a notice falls back to when it has no text in the reader's. */
export const NOTICE_FALLBACK_LOCALE = 'en-US';
export const NOTICE_TITLE_MAX = 120;
export const NOTICE_BODY_MAX = 20_000;
export const NOTICE_PAGE_SIZE_MAX = 50;

/** One locale's text, as an operator writes it. */
export const noticeText = z.strictObject({
  locale: z.enum(LOCALES),
  title: z.string().trim().min(1).max(NOTICE_TITLE_MAX),
  body: z.string().max(NOTICE_BODY_MAX),
});
export type NoticeText = z.infer<typeof noticeText>;

/** GET user/api/notice/list */
export const noticeListQuery = z.strictObject({
  category: z.enum(NOTICE_CATEGORIES).optional(),
  page: z.coerce.number().int().min(1).default(1),
  size: z.coerce.number().int().min(1).max(NOTICE_PAGE_SIZE_MAX).default(20),
});
export type NoticeListQuery = z.input<typeof noticeListQuery>;

export const noticeItem = z.object({
  id: z.number(),
  category: z.enum(NOTICE_CATEGORIES),
  pinned: z.boolean(),
  publishedAt: z.number(),
  /** The locale of the text served (the reader's, else English). */
  locale: z.enum(LOCALES),
  title: z.string(),
  /** The body as plain text, cut to a line or two. */
  excerpt: z.string(),
  read: z.boolean(),
});
export type NoticeItem = z.infer<typeof noticeItem>;

export const noticeList = z.object({ list: z.array(noticeItem), total: z.number(), unread: z.number() });
export type NoticeList = z.infer<typeof noticeList>;

/** GET user/api/notice/detail?id= */
export const noticeDetailQuery = z.strictObject({ id: idParam });
export type NoticeDetailQuery = z.input<typeof noticeDetailQuery>;

export const noticeDetail = noticeItem.omit({ excerpt: true }).extend({
  /** The body rendered from Markdown on the server: no raw HTML, no javascript:/data:/vbscript: links. */
  html: z.string(),
});
export type NoticeDetail = z.infer<typeof noticeDetail>;

/** POST user/api/notice/read: one notice read (`id`), or all of them (no id). */
export const noticeReadBody = z.strictObject({ id: idParam.optional() });
export type NoticeReadBody = z.input<typeof noticeReadBody>;

/** GET user/api/notice/unread, and the answer of notice/read */
export const noticeUnread = z.object({ unread: z.number() });
export type NoticeUnread = z.infer<typeof noticeUnread>;
