import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { threads } from '../../../../server/db/schema.ts';
import { THREAD_TEMPLATE_FILE } from '../../../../server/http/site-files.ts';
import { TEST_SITE } from '../../../site-under-test.ts';
import { startApp } from '../../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../../helpers/database.ts';

// `npm run dev` (SERVE_SITE=false, DEV_PAGES_URL): no built site, so thread pages are filled from the
// template as Astro's dev server renders it, source marks on every element included.
let app: FastifyInstance;
let base: string;
let devServer: Server;
let templateAnswers = 200;
const asked: string[] = [];

beforeAll(async () => {
  const built = await readFile(`${TEST_SITE.siteDir}/${THREAD_TEMPLATE_FILE}`, 'utf8');
  const marked = built.replace(
    /<(template|article|p)\b/g,
    '<$1 data-astro-source-file="/src/pages/thread/template.astro" data-astro-source-loc="1:2"',
  );
  devServer = createServer((request, response) => {
    asked.push(request.url ?? '');
    response.writeHead(templateAnswers, { 'content-type': 'text/html' }).end(marked);
  });
  devServer.listen(0, '127.0.0.1');
  await once(devServer, 'listening');
  const { port } = devServer.address() as { port: number };
  ({ app, base } = await startApp({ SERVE_SITE: 'false', DEV_PAGES_URL: `http://127.0.0.1:${port}` }));
  await resetDatabase(await testDatabase());
});
afterAll(async () => {
  await app.close();
  devServer.close();
});

test("a thread page is filled into the dev server's template, with a CSP its dev scripts can run under", async () => {
  const { db } = await testDatabase();
  const [stored] = await db
    .insert(threads)
    .values({
      shortcode: 'D1',
      source: 'public_search',
      status: 'approved',
      username: 'dev_author',
      authorName: 'Dev Author',
      text: 'Post D1 in dev',
      topicTag: 'Typography',
      permalink: 'https://www.threads.com/@dev_author/post/D1',
      postedAt: new Date(Date.UTC(2026, 10, 20, 12)),
    })
    .returning({ id: threads.id });
  const response = await fetch(`${base}/thread/${stored?.id}`);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).toContain('Post D1 in dev');
  expect(html).not.toContain('<template data-ct-part');
  expect(html).not.toContain('data-astro-source');
  expect(response.headers.get('content-security-policy')).toContain("'unsafe-inline'");
  expect(asked).toContain('/thread/template/');

  // The dev server not giving the template (stopped, or an error page): no page, not a broken one.
  templateAnswers = 500;
  expect((await fetch(`${base}/thread/${stored?.id}`)).status).toBe(404);
  // The site itself is not served: Astro's dev server renders the pages.
  expect((await fetch(`${base}/`)).status).toBe(404);
});
