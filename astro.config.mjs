// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';

const apiPort = process.env.API_PORT ?? '4322';
// The API's origin when it is not the pages' own (validated by server/config.ts); '' keeps `/api/...` relative.
const apiBaseUrl = (process.env.API_BASE_URL ?? '').trim().replace(/\/+$/, '');

/** `client:interaction` (src/directives/interaction.ts): islands whose HTML is complete hydrate on first use. */
const interactionDirective = {
  name: 'client-interaction',
  hooks: {
    /** @param {{ addClientDirective: (directive: { name: string; entrypoint: string }) => void }} options */
    'astro:config:setup': ({ addClientDirective }) => {
      addClientDirective({ name: 'interaction', entrypoint: './src/directives/interaction.ts' });
    },
  },
};

const rendererAdapter = {
  name: 'curated-threads-renderer',
  hooks: {
    /** @param {{ setAdapter: (adapter: import('astro').AstroAdapter) => void }} options */
    'astro:config:done': ({ setAdapter }) => {
      setAdapter({
        name: 'curated-threads-renderer',
        entrypointResolution: 'auto',
        serverEntrypoint: './src/renderer/entrypoint.ts',
        supportedAstroFeatures: {
          staticOutput: 'stable',
          hybridOutput: 'stable',
          serverOutput: 'stable',
          sharpImageService: 'stable',
        },
      });
    },
  },
};

export default defineConfig({
  // Absolute URLs (canonical, OpenGraph, sitemap) are built from the public origin.
  site: process.env.PUBLIC_URL ?? `http://${process.env.HOST ?? '127.0.0.1'}:${process.env.PORT ?? '4321'}`,
  output: 'static',
  trailingSlash: 'ignore',
  integrations: [react(), interactionDirective],
  adapter: rendererAdapter,
  // All CSS inline: the first paint needs no second request (the per-page CSP carries the hashes).
  build: { format: 'directory', inlineStylesheets: 'always' },
  server: { host: '127.0.0.1', port: 4321 },
  vite: {
    // Read by src/lib/api-base.ts, in the pages and the islands alike.
    define: { __API_BASE_URL__: JSON.stringify(apiBaseUrl) },
    server: {
      // `npm run dev` (scripts/dev.ts): the Astro dev server renders the pages and proxies to our API
      // server what only it answers: the API, the data files, the thread pages it fills from the
      // database (all but the template they are filled from, which Astro renders for it), the
      // preview pictures it draws, and the simulated Threads it mounts.
      proxy: {
        '/api': `http://127.0.0.1:${apiPort}`,
        '/data': `http://127.0.0.1:${apiPort}`,
        '^/thread/(?!template(/|$))': `http://127.0.0.1:${apiPort}`,
        '/social/': `http://127.0.0.1:${apiPort}`,
        '/simulated-threads': `http://127.0.0.1:${apiPort}`,
      },
    },
  },
});
