import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { loadFirstScreenHints } from './first-screen-hints';

/**
 * The built SPA from WEB_DIST. Hash routes mean only `/` needs index.html; hashed assets are
 * cached for a year, everything else revalidated. Unknown paths fall through to the 404 envelope.
 */
export async function serveWeb(app: FastifyInstance, webDist: string) {
  if (!existsSync(path.join(webDist, 'index.html'))) {
    app.log.warn({ webDist }, 'web app not built: / shows a hint (run npm run build)');
    app.get('/', { schema: { hide: true } }, async (_req, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><meta charset="utf-8"><title>Lightning Quant</title><p>The web app is not built yet: run <code>npm run build</code>. The API is up, see <a href="/docs">/docs</a>.</p>',
        ),
    );
    return;
  }
  const hints = loadFirstScreenHints(webDist);
  // A scope of its own, so the hook below sees only the static files' responses.
  await app.register(async (scope) => {
    if (hints) {
      // index.html (`/`) names the first screen's lazy files so they load in the first round.
      scope.addHook('onSend', async (request, reply) => {
        if (reply.statusCode !== 200 || !/^\/(index\.html)?(\?|$)/.test(request.url)) return;
        // No `Vary: accept-language`: the body is the same, the header only a hint (a cache may hand
        // one language's hint to another visitor: ~4 KB fetched for nothing), and the service
        // worker's precache would not match index.html again (the Cache API honours Vary).
        const link = hints(request.headers['accept-language']);
        if (link) reply.header('link', link);
      });
    }
    await scope.register(fastifyStatic, {
      root: webDist,
      prefix: '/',
      index: ['index.html'],
      wildcard: true,
      decorateReply: false,
      cacheControl: false,
      // The web build ships .br/.gz next to each file: serve those to clients that accept them.
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader(
          'cache-control',
          immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
        // The body depends on accept-encoding (pre-compressed variants): tell shared caches.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  });
}
