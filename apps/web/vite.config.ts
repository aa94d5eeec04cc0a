import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * Writes `.br` and `.gz` next to every text asset so a static server can send them as they are
 * (@fastify/static `preCompressed: true`) instead of compressing on each request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
  return {
    name: 'lq-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      for (const file of walk(outDir).filter((f) => /\.(js|css|html|svg|json)$/.test(f))) {
        const data = readFileSync(file);
        if (data.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
        writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * Puts the app's style sheet into index.html. A linked sheet blocks the first paint until it has
 * arrived; inline, the boot shell paints as soon as the HTML is parsed, while the scripts load.
 */
function inlineCss(): Plugin {
  return {
    name: 'lq-inline-css',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return;
      let text = String(html.source);
      for (const [name, asset] of Object.entries(bundle)) {
        if (asset.type !== 'asset' || !name.endsWith('.css')) continue;
        const link = new RegExp(`<link rel="stylesheet"[^>]*href="/${name.replace(/[.$]/g, '\\$&')}"[^>]*>`);
        if (!link.test(text)) continue;
        text = text.replace(link, () => `<style>${String(asset.source).replaceAll('</style', '<\\/style')}</style>`);
        delete bundle[name];
      }
      html.source = text;
    },
  };
}

// The API is served by the same origin in production; in development vite proxies it.
const api = 'http://127.0.0.1:8080';

/**
 * The installable app: the manifest, and the service worker built from sw/sw.ts with the list of
 * the build's files to precache (the whole app, so it opens offline; fetched after the page has
 * loaded, see src/pwa/). Registered by the app itself, which asks before taking a new version.
 */
const pwa = VitePWA({
  strategies: 'injectManifest',
  srcDir: 'sw',
  filename: 'sw.ts',
  registerType: 'prompt',
  injectRegister: false,
  manifestFilename: 'manifest.webmanifest',
  includeAssets: ['favicon.svg'],
  manifest: {
    id: '/',
    name: 'Lightning Quant',
    short_name: 'Lightning Quant',
    description: 'AI-assisted backtests and trading robots for forex and crypto',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#0B0E11',
    // Forex's accent; the page sets theme-color to the chosen market's (src/pwa/theme.ts).
    theme_color: '#14B8A6',
    icons: [
      { src: '/icons/app-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/app-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/app-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  injectManifest: {
    globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
    // The operator console is never part of what a user's device downloads ahead.
    globIgnores: ['**/ConsoleApp-*', '**/console.*'],
    maximumFileSizeToCacheInBytes: 3_000_000,
  },
});

export default defineConfig({
  plugins: [react(), inlineCss(), precompress(), pwa],
  base: '/',
  build: {
    outDir: 'dist',
    // .vite/manifest.json: the server reads it to name the login page's and locale's files in a
    // Link header of index.html (platform/web.ts), so they load in the first round.
    manifest: true,
    emptyOutDir: true,
    target: 'es2022',
    // Only the shell goes into the entry chunk; pages, other locales and charts load lazily.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      // contracts is declarations only (schemas, constants, catalogs): unused parts, zod
      // included, can be dropped from the first-load bundle.
      treeshake: {
        moduleSideEffects: (id: string) => !/[\\/]packages[\\/]contracts[\\/]/.test(id),
        // No `manualPureFunctions`: it matches names, not bindings. ['z'] (meant for zod) also
        // made minified libraries' own `z()` pure, and lightweight-charts' canvas clear is one:
        // the K-line kept every old frame after a zoom. It saved 0.6 KB gzip.
      },
      output: {
        // Form libraries and charts get chunks of their own so the shell never waits for them.
        advancedChunks: {
          includeDependenciesRecursively: false,
          groups: [
            // zod apart from react-hook-form: the other forms use both; login, register and reset load only zod, on first focus (lib/firstScreenForm).
            { name: 'zod', test: /node_modules[\\/](zod|@hookform)[\\/]/ },
            { name: 'forms', test: /node_modules[\\/]react-hook-form[\\/]/ },
            { name: 'charts', test: /node_modules[\\/](lightweight-charts|fancy-canvas)[\\/]/ },
            // The users' session with what it uses (API client, i18next, toasts, events): the
            // console's chunk uses some of them too, and without this group each would split into
            // a chunk of its own — the register page's first screen went 149.8 → 150.5 KB gzip.
            { name: 'session', test: /([\\/]src[\\/]lib[\\/](api|events|session|sessionSync|throttle|toast)\.ts$|[\\/]packages[\\/]contracts[\\/]src[\\/](envelope|normalize)\.ts$|node_modules[\\/]i18next[\\/])/ },
            // The installable app's registration, offline view and update prompt (after the page).
            { name: 'pwa', test: /([\\/]src[\\/]pwa[\\/]|node_modules[\\/]workbox-window[\\/])/ },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: { '/user': api, '/order': api },
  },
  preview: { host: '127.0.0.1' },
});
