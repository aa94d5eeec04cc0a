// The console's notices editor (issue 32, slice 4): every notice with its state and reads, one
// notice with all its texts, saving a draft or a notice's texts, a preview of a body rendered as
// users will see it (the same Markdown renderer), publishing now or at a time, taking down, and
// deleting a draft. Each change in the audit log with the notice before and after.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  consoleNoticeDetail,
  consoleNoticeDetailQuery,
  consoleNoticeIdBody,
  consoleNoticeList,
  consoleNoticePreview,
  consoleNoticePreviewBody,
  consoleNoticePublishBody,
  consoleNoticeSaveBody,
  consoleNoticesQuery,
  envelopeOf,
  type ConsoleNoticeDetail,
} from '@lq/contracts';
import type { PlatformDeps } from '../platform/deps';
import { bearerAuth, errorResponses, ok } from '../platform/http';
import { deleteFromConsole, noticeForConsole, noticesForConsole, publishFromConsole, renderNoticeHtml, saveNoticeFromConsole, unpublishFromConsole } from '../notices';
import type { ConsoleAudit } from './routes';

const tags = ['console'];

/** What the audit log keeps of a notice: its state and texts' titles (bodies can be long; the notice keeps them). */
const shown = (n: ConsoleNoticeDetail | null) =>
  n && { state: n.state, category: n.category, pinned: n.pinned, publishAt: n.publishAt === null ? null : new Date(n.publishAt).toISOString(), titles: Object.fromEntries(n.texts.map((x) => [x.locale, x.title])) };

export function noticeRoutes(app: FastifyInstance, deps: PlatformDeps, audit: ConsoleAudit): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const detail = { 200: envelopeOf(consoleNoticeDetail), ...errorResponses };

  r.get(
    '/notices',
    { schema: { tags, summary: 'Notices by state, category and title, newest or oldest first, paged: state, pinned, when it shows, its locales, title and reads', security: bearerAuth, querystring: consoleNoticesQuery, response: { 200: envelopeOf(consoleNoticeList), ...errorResponses } } },
    async (req) => ok(req, await noticesForConsole(deps.db, req.query)),
  );

  r.get(
    '/notices/detail',
    { schema: { tags, summary: 'One notice with every text', security: bearerAuth, querystring: consoleNoticeDetailQuery, response: detail } },
    async (req) => ok(req, await noticeForConsole(deps.db, req.query.id)),
  );

  r.post(
    '/notices/preview',
    { schema: { tags, summary: 'A Markdown body rendered as users will see it (raw HTML off, unsafe links dropped); changes nothing', security: bearerAuth, body: consoleNoticePreviewBody, response: { 200: envelopeOf(consoleNoticePreview), ...errorResponses } } },
    (req) => Promise.resolve(ok(req, { html: renderNoticeHtml(req.body.body) })),
  );

  r.post(
    '/notices/save',
    { schema: { tags, summary: 'Saves a new draft (no id), or a notice’s category, pin and texts (the locales sent are its locales; a published one keeps English)', security: bearerAuth, body: consoleNoticeSaveBody, response: detail } },
    async (req) => {
      const saved = await saveNoticeFromConsole(deps.db, req.body);
      await audit(req, req.body.id === undefined ? 'notices.create' : 'notices.save', { objectType: 'notice', objectId: saved.id, before: shown(saved.before), after: shown(saved.after) });
      return ok(req, saved.after);
    },
  );

  r.post(
    '/notices/publish',
    { schema: { tags, summary: 'Publishes now, or at a time to come (scheduled until then); needs the English text', security: bearerAuth, body: consoleNoticePublishBody, response: detail } },
    async (req) => {
      const before = await noticeForConsole(deps.db, req.body.id);
      const after = await publishFromConsole(deps.db, req.body.id, req.body.at ? new Date(req.body.at) : undefined);
      await audit(req, 'notices.publish', { objectType: 'notice', objectId: req.body.id, before: shown(before), after: shown(after) });
      return ok(req, after);
    },
  );

  r.post(
    '/notices/unpublish',
    { schema: { tags, summary: 'Takes a notice down (kept with its reads; publishing again shows it again)', security: bearerAuth, body: consoleNoticeIdBody, response: detail } },
    async (req) => {
      const before = await noticeForConsole(deps.db, req.body.id);
      const after = await unpublishFromConsole(deps.db, req.body.id);
      await audit(req, 'notices.unpublish', { objectType: 'notice', objectId: req.body.id, before: shown(before), after: shown(after) });
      return ok(req, after);
    },
  );

  r.post(
    '/notices/delete',
    { schema: { tags, summary: 'Deletes a draft (a notice once published is taken down instead)', security: bearerAuth, body: consoleNoticeIdBody, response: detail } },
    async (req) => {
      const gone = await deleteFromConsole(deps.db, req.body.id);
      await audit(req, 'notices.delete', { objectType: 'notice', objectId: req.body.id, before: shown(gone), after: null });
      return ok(req, gone);
    },
  );
}
