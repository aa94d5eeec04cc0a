// Notices and news: operators write them per locale (ops.ts; the console issue adds an editor),
// users read them in their language (routes.ts); bodies are Markdown rendered safely (markdown.ts).
import fp from 'fastify-plugin';
import { platformDeps } from '../platform/deps';
import { noticeRoutes } from './routes';

export const noticesPlugin = fp(
  async (app) => {
    noticeRoutes(app, platformDeps(app));
    return Promise.resolve();
  },
  { name: 'notices' },
);

export { NOTICE_OPS } from './ops';
/** Writing notices, for what publishes them besides ops (the console, tests and benches of other areas). */
export { createNotice, publishNotice, setNoticeText, unpublishNotice, noticesForConsole, noticeForConsole, saveNoticeFromConsole, publishFromConsole, unpublishFromConsole, deleteFromConsole } from './service';
export { renderNoticeHtml } from './markdown';
