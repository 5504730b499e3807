import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { catalogueFiles } from '../../../../../../server/publisher/export/catalogue-files.ts';
import {
  CatalogueSourceError,
  prepareCatalogue,
  type CatalogueSourceSettings,
} from '../../../../../../server/publisher/build/host/catalogue-source.ts';

const SAMPLE = path.resolve(import.meta.dirname, '../../../../../../data');
const sampleCards = JSON.parse(await readFile(path.join(SAMPLE, 'threads-all.json'), 'utf8')) as unknown[];
const dates = { generatedAt: new Date('2026-11-01T10:00:00Z'), nextUpdate: new Date('2026-11-01T11:00:00Z') };

async function settings(overrides: Partial<CatalogueSourceSettings> = {}): Promise<CatalogueSourceSettings> {
  return {
    catalogueDir: path.join(await mkdtemp(path.join(tmpdir(), 'ct-source-')), 'catalogue'),
    sampleCatalogueDir: SAMPLE,
    refreshIntervalMinutes: 60,
    catalogueUrl: undefined,
    catalogueDirGiven: false,
    ...overrides,
  };
}

/** A fetch answering from a map of URL → [status, body]; anything else is unreachable. */
function fakeFetch(answers: Record<string, [number, string]>): typeof fetch {
  return (async (input: string | URL | Request) => {
    const answer = answers[String(input)];
    if (!answer)
      throw Object.assign(new TypeError('fetch failed'), { cause: { message: 'connect ECONNREFUSED' } });
    return new Response(answer[1], { status: answer[0], statusText: answer[0] === 200 ? 'OK' : 'Not Found' });
  }) as typeof fetch;
}

const read = (dir: string, file: string) => readFile(path.join(dir, file), 'utf8');

describe('prepareCatalogue', () => {
  test("a fresh folder gets the sample exported whole, with the server's version", async () => {
    const lines: string[] = [];
    const s = await settings();
    await prepareCatalogue(s, { log: (line) => lines.push(line) });
    const manifest = JSON.parse(await read(s.catalogueDir, 'manifest.json')) as { version: string };
    // The committed sample carries the version the server's export gives it.
    const sample = JSON.parse(await read(SAMPLE, 'manifest.json')) as { version: string };
    expect(manifest.version).toBe(sample.version);
    const firstPage = await read(s.catalogueDir, 'pages/all/1.json');
    expect(firstPage).toContain((sampleCards[0] as { id: string }).id);
    expect(lines.join('\n')).toMatch(/exported the sample \(48 threads\)/);
    // A folder that holds an export is used as it is.
    lines.length = 0;
    await prepareCatalogue(s, { log: (line) => lines.push(line) });
    expect(lines).toEqual([`Building from the catalogue in ${s.catalogueDir}.`]);
  });

  test('CATALOGUE_URL: downloads, validates and writes the whole catalogue with the same version', async () => {
    const { files, manifest } = catalogueFiles(sampleCards as never, dates);
    const body = (name: string) => files.find(([file]) => file === name)?.[1] ?? '';
    const s = await settings({ catalogueUrl: 'https://curated.example/data' });
    const fetchFn = fakeFetch({
      'https://curated.example/data/manifest.json': [200, body('manifest.json')],
      'https://curated.example/data/threads-all.json': [200, body('threads-all.json')],
    });
    await prepareCatalogue(s, { log: () => {}, fetchFn });
    const written = JSON.parse(await read(s.catalogueDir, 'manifest.json')) as typeof manifest;
    expect(written).toEqual(manifest);
    expect(await read(s.catalogueDir, 'search/index.json')).toBe(body('search/index.json'));
  });

  test('CATALOGUE_URL errors say what is wrong: unreachable, a status, not JSON, an invalid card', async () => {
    const url = 'https://curated.example/data';
    const good = catalogueFiles([], dates).manifest;
    const cases: [Record<string, [number, string]>, RegExp][] = [
      [{}, /Could not reach https:\/\/curated\.example\/data\/manifest\.json \(connect ECONNREFUSED\)/],
      [{ [`${url}/manifest.json`]: [404, 'nope'] }, /manifest\.json answered 404/],
      [{ [`${url}/manifest.json`]: [200, '<html>'] }, /manifest\.json is not valid JSON/],
      [{ [`${url}/manifest.json`]: [200, '{"generatedAt":1}'] }, /not a catalogue manifest \(generatedAt/],
      [
        {
          [`${url}/manifest.json`]: [200, JSON.stringify(good)],
          [`${url}/threads-all.json`]: [200, JSON.stringify([{ id: 'x' }])],
        },
        /threads-all\.json holds an invalid card \(0\./,
      ],
    ];
    for (const [answers, message] of cases) {
      const attempt = prepareCatalogue(await settings({ catalogueUrl: url }), {
        log: () => {},
        fetchFn: fakeFetch(answers),
      });
      await expect(attempt).rejects.toThrow(CatalogueSourceError);
      await expect(attempt).rejects.toThrow(message);
    }
  });

  test('a CATALOGUE_URL that is not an http(s) URL is refused before any request', async () => {
    const s = await settings({ catalogueUrl: 'curated.example/data' });
    await expect(prepareCatalogue(s, { log: () => {}, fetchFn: fakeFetch({}) })).rejects.toThrow(
      /CATALOGUE_URL must be an http\(s\) URL/,
    );
  });

  test('CATALOGUE_DIR without a catalogue is an error, not a silent sample', async () => {
    const s = await settings({ catalogueDirGiven: true });
    await expect(prepareCatalogue(s, { log: () => {} })).rejects.toThrow(
      /CATALOGUE_DIR=.* holds no catalogue/,
    );
  });
});
