/**
 * The tail site's web server (playwright.config.ts, 'site' project): writes a catalogue with the real
 * export, moves three newer threads into a tail on its first pages (tests/helpers/catalogue-tail.ts,
 * as the export does between full exports: decision 037), builds the site from it and serves both
 * with the server's own static serving (ServedSite). Runs until killed.
 */
import { rm } from 'node:fs/promises';
import Fastify from 'fastify';
import type { ThreadCard } from '../../contract/thread-card.ts';
import { buildSampleCards } from '../../scripts/sample/catalogue.ts';
import { buildSite } from '../../server/publisher/build/build-site.ts';
import { catalogueDatesFrom, writeCatalogue } from '../../server/publisher/export/export-catalogue.ts';
import { mountServedSite } from '../../server/publisher/serve/mount.ts';
import { ServedSite } from '../../server/publisher/serve/served-site.ts';
import { addCatalogueTail } from '../helpers/catalogue-tail.ts';
import { TAIL_SITE } from '../site-under-test.ts';

const generatedAt = new Date('2026-11-22T12:00:00.000Z');

/** The full export's threads: 80, so All has four page files (24, 24, 24, 8). */
export const TAIL_BASE_COUNT = 80;

/** Approved since the full export, newest first; one word of each is found by no other thread. */
export const TAIL_THREADS = ['Quokka', 'Axolotl', 'Pangolin'].map((word, i) => ({
  word,
  content: `${word} typography: approved after the full export, shown before every older thread (${i + 1}).`,
}));

function tailCards(template: ThreadCard): ThreadCard[] {
  return TAIL_THREADS.map(({ content }, i) => ({
    ...template,
    id: `tail-${i + 1}`,
    content,
    timestamp: new Date(generatedAt.getTime() + (TAIL_THREADS.length - i) * 60_000).toISOString(),
    permalink: `https://www.threads.com/@maren.makes/post/TAIL${i + 1}`,
  }));
}

if (import.meta.main) {
  const dir = TAIL_SITE.catalogueDir;
  // A fresh folder: the export skips the pages when the manifest on disk has its version already.
  await rm(dir, { recursive: true, force: true });
  const base = buildSampleCards(TAIL_BASE_COUNT, generatedAt, 5);
  const template = base.find((card) => card.type === 'text' && card.topic_tag);
  if (!template) throw new Error('the sample has no text card with a topic');
  await writeCatalogue(dir, base, catalogueDatesFrom(generatedAt, 60));
  await addCatalogueTail(dir, tailCards(template));
  await buildSite(TAIL_SITE);

  const app = Fastify({ logger: false });
  mountServedSite(
    app,
    await ServedSite.load({ siteDir: TAIL_SITE.siteDir, catalogueDir: dir, secure: false }),
  );
  const { port, hostname } = new URL(TAIL_SITE.publicUrl);
  await app.listen({ port: Number(port), host: hostname });
  console.log(`The tail site is served on ${TAIL_SITE.publicUrl}`);
}
