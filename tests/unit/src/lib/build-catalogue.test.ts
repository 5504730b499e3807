import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { groupByTopic } from '../../../../contract/topics.ts';
import { writeCatalogue } from '../../../../server/publisher/export/export-catalogue.ts';
import { catalogueDatesFrom } from '../../../../server/publisher/export/export-catalogue.ts';
import { buildSampleCards } from '../../../../scripts/sample/catalogue.ts';
import { createCatalogueReader } from '../../../../src/lib/build-catalogue.ts';
import { addCatalogueTail } from '../../../helpers/catalogue-tail.ts';
import { testCard } from '../../helpers/thread-card.ts';

const now = new Date('2026-11-21T10:00:00.000Z');
const dates = catalogueDatesFrom(now, 60);

/** 130 sample cards, a few topics made small, exported into a fresh folder. */
async function exported() {
  const cards = buildSampleCards(130, now).map((card, i) =>
    i % 31 === 0 ? { ...card, topic_tag: i % 2 === 0 ? 'Типографика' : 'Kerning' } : card,
  );
  const dir = await mkdtemp(path.join(tmpdir(), 'build-catalogue-'));
  await writeCatalogue(dir, cards, dates);
  return { cards, dir };
}

/** Everything the pages and feeds ask the reader for. */
async function everything(reader: ReturnType<typeof createCatalogueReader>, current: string) {
  return {
    head: await reader.readCatalogueHead(),
    newest: await reader.readNewestCards(50),
    topics: await reader.readCatalogueTopics(50),
    bare: await reader.readCatalogueTopics(0),
    pages: await Promise.all(
      (await reader.readCatalogueTopics(0)).map(({ topic }) => reader.readTopicPage(topic.slug, 24)),
    ),
    missing: await reader.readTopicPage('no-such-topic', 24),
    navigation: await reader.readTopicNavigation(current),
    built: await reader.readBuiltManifest(),
  };
}

describe('the build reads the heads of the lists', () => {
  test('and gets what threads-all.json would give, without opening it', async () => {
    const { cards, dir } = await exported();
    const groups = groupByTopic(cards);
    const smallest = groups.at(-1)?.topic.slug ?? '';
    // The exported folder without its whole files: the reader must not need them.
    for (const name of ['threads-all.json', 'threads-text.json', 'threads-images.json'])
      await rm(path.join(dir, name));
    const read = await everything(createCatalogueReader(dir), smallest);

    expect(read.head).toEqual({ cards: cards.slice(0, 24), total: 130 });
    // 50 cards are more than a page: the feed reads the first three pages of All.
    expect(read.newest).toEqual(cards.slice(0, 50));
    expect(read.topics).toEqual(groups.map(({ topic, cards: own }) => ({ topic, cards: own.slice(0, 50) })));
    expect(read.topics.some(({ cards: own }) => own.length > 24)).toBe(true);
    expect(read.bare).toEqual(groups.map(({ topic }) => ({ topic, cards: [] })));
    expect(read.pages).toEqual(groups.map(({ topic, cards: own }) => ({ topic, cards: own.slice(0, 24) })));
    expect(read.missing).toBeNull();
    expect(read.navigation.total).toBe(groups.length);
    expect(read.navigation.topics.map((topic) => topic.slug)).toContain(smallest);
    expect(read.built?.version).toMatch(/^[0-9a-f]{16}$/);
  });

  test('with a tail on the first pages, the heads and feeds read the pages one after another', async () => {
    const { cards, dir } = await exported();
    const tail = [
      testCard({ id: 'tail-1', content: 'Newest: a kerning table', topic_tag: 'Lettering' }),
      testCard({
        id: 'tail-2',
        content: 'Approved a minute ago',
        topic_tag: groupByTopic(cards)[0]?.topic.tag,
      }),
      testCard({ id: 'tail-3', content: 'Approved since the export' }),
    ];
    const manifest = await addCatalogueTail(dir, tail);
    const list = [...tail, ...cards];
    const reader = createCatalogueReader(dir);

    // All's first page holds 27 cards: the home shows the first 24, its total counts the tail.
    expect(await reader.readCatalogueHead()).toEqual({ cards: list.slice(0, 24), total: 133 });
    // The feeds' 50 span the first page's 27 and the second page.
    expect(await reader.readNewestCards(50)).toEqual(list.slice(0, 50));
    const topics = await reader.readCatalogueTopics(50);
    expect(topics.find(({ topic }) => topic.slug === 'lettering')).toEqual({
      topic: { tag: 'Lettering', slug: 'lettering', count: 1 },
      cards: [tail[0]],
    });
    const biggest = groupByTopic(cards)[0];
    expect(topics.find(({ topic }) => topic.slug === biggest?.topic.slug)?.cards).toEqual(
      [tail[1], ...(biggest?.cards ?? [])].slice(0, 50),
    );
    expect((await reader.readTopicNavigation('lettering')).topics.map(({ slug }) => slug)).toContain(
      'lettering',
    );
    expect(await reader.readBuiltManifest()).toEqual({
      generatedAt: manifest.generatedAt,
      nextUpdate: manifest.nextUpdate,
      version: manifest.version,
      head: manifest.head,
    });
  });

  test('a folder without pages (the committed sample) is read from threads-all.json, with the same result', async () => {
    const { cards, dir } = await exported();
    const sample = await mkdtemp(path.join(tmpdir(), 'build-sample-'));
    for (const name of ['threads-all.json', 'manifest.json'])
      await copyFile(path.join(dir, name), path.join(sample, name));
    const current = groupByTopic(cards).at(-1)?.topic.slug ?? '';
    expect(await everything(createCatalogueReader(sample), current)).toEqual(
      await everything(createCatalogueReader(dir), current),
    );
  });

  test('a malformed card on a page fails the build, naming the file', async () => {
    const { dir } = await exported();
    await writeFile(
      path.join(dir, 'pages/all/1.json'),
      JSON.stringify({ version: 'v', list: 'all', page: 1, pages: 1, total: 1, cards: [{ id: 1 }] }),
    );
    await expect(createCatalogueReader(dir).readCatalogueHead()).rejects.toThrow(
      /pages\/all\/1\.json has an invalid card/,
    );
  });
});
