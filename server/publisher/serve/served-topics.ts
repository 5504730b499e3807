import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { ManifestSchema } from '../../../contract/manifest.ts';
import type { CatalogueTopic } from '../../../contract/topics.ts';
import { MANIFEST_FILE } from '../export/catalogue-files.ts';
import type { CatalogueReader } from './served-site.ts';

/** A manifest's topics; none when it cannot be read (a picture is never worth a 500). */
function topicsOf(body: string): CatalogueTopic[] {
  try {
    const manifest = ManifestSchema.safeParse(JSON.parse(body));
    return manifest.success ? (manifest.data.topics ?? []) : [];
  } catch {
    return [];
  }
}

/**
 * The topics of the catalogue this instance serves, by slug, read from its manifest: the same
 * names and counts the topic pages show. Parsed once per manifest version (its ETag), not per call.
 */
export function servedTopics(catalogue: CatalogueReader): (slug: string) => Promise<CatalogueTopic | null> {
  let parsed: { etag: string; topics: Map<string, CatalogueTopic> } | null = null;
  return async (slug) => {
    const answer = await catalogue.answer(`/data/${MANIFEST_FILE}`, {
      method: 'GET',
      acceptEncoding: undefined,
      ifNoneMatch: undefined,
    });
    if (!answer?.body) return null;
    const etag = answer.headers.etag ?? '';
    if (parsed?.etag !== etag) {
      const body = Buffer.isBuffer(answer.body) ? answer.body.toString('utf8') : await text(answer.body);
      const topics = topicsOf(body);
      parsed = { etag, topics: new Map(topics.map((topic) => [topic.slug, topic])) };
    } else if (answer.body instanceof Readable) {
      answer.body.destroy();
    }
    return parsed.topics.get(slug) ?? null;
  };
}
