import { parseDigestId } from '../../../contract/digest.ts';
import { digestDays, digestName } from '../../../contract/digest-page.ts';
import type { CatalogueTopic } from '../../../contract/topics.ts';
import type { SocialKind } from '../../../contract/social-image.ts';
import type { Database } from '../../db/client.ts';
import { createDigestsRepository } from '../../repositories/digests.ts';
import { createProfilesRepository } from '../../repositories/profiles.ts';
import type { ThreadPages } from '../thread-pages/thread-page.ts';
import type { SocialCard } from './social-card.ts';
import { threadSocialCard } from './thread-picture.ts';

const count = (n: number) => `${n.toLocaleString('en-US')} curated ${n === 1 ? 'thread' : 'threads'}`;

/** Where a topic's name and count are read: the served catalogue's manifest, not the database. */
export type TopicLookup = (slug: string) => Promise<CatalogueTopic | null>;

/**
 * What each page's picture shows (decision 048), read as its page reads it: a thread as its page
 * (approved only), a topic from the served manifest, a profile only once approved, a digest once
 * published. Null: no such
 * page, so no picture (404).
 */
export function createSocialPictures({
  db,
  threadPages,
  topic,
}: {
  db: Database;
  threadPages: ThreadPages;
  topic: TopicLookup;
}) {
  const profiles = createProfilesRepository(db);
  const digests = createDigestsRepository(db);
  const readers: Record<SocialKind, (key: string) => Promise<SocialCard | null>> = {
    async thread(id) {
      // The card alone: the page's related threads are a second query the picture does not show.
      const card = await threadPages.card(id);
      return card ? threadSocialCard(card) : null;
    },
    async topic(slug) {
      const found = await topic(slug);
      if (!found) return null;
      return {
        kind: 'Topic',
        headline: `#${found.tag}`,
        headlineStyle: 'name',
        body: 'Design and UI posts from Threads, curated by people.',
        footer: count(found.count),
      };
    },
    async profile(username) {
      const found = await profiles.findApprovedByName(username);
      const name = found?.profile.displayUsername;
      if (!found || !name) return null;
      return {
        kind: 'Member',
        headline: `@${name}`,
        headlineStyle: 'name',
        body: found.profile.bio,
        footer: 'Their gems and curated threads',
      };
    },
    async digest(id) {
      // A malformed key asks the database nothing.
      const week = parseDigestId(id);
      const found = week ? await digests.find(id) : null;
      // An empty week's digest has no page, so no picture either (export-digests.ts).
      if (!week || !found?.publishedAt || !found.threadIds?.length) return null;
      const threads = found.threadIds?.length ?? 0;
      return {
        kind: 'Weekly digest',
        headline: digestName(week),
        headlineStyle: 'name',
        body: found.note || 'The best design and UI threads of the week, curated by people.',
        footer: `${digestDays(week)} · ${threads} ${threads === 1 ? 'thread' : 'threads'}`,
      };
    },
  };
  return {
    /** The picture's words for a page, or null when the page does not exist. */
    find(kind: SocialKind, key: string): Promise<SocialCard | null> {
      return readers[kind](key);
    },
  };
}
export type SocialPictures = ReturnType<typeof createSocialPictures>;
