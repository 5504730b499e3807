/**
 * The pages of issue 20 besides home, made ready for Lighthouse: a bench site's largest topic, and on
 * the live server a thread page and a member's profile. A thread page is filled by the server from
 * its database (decision 046) and a profile is rendered by the publisher once the member is approved,
 * so neither exists on the cached sites: their servers run on an empty database (the synthetic sample
 * stands in), and an approval there would export over the cached catalogue and rebuild the cache.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ManifestSchema } from '../../contract/manifest.ts';
import type { ReviewThread } from '../../contract/review.ts';
import type { ReviewQueuePage } from '../../contract/review-queue.ts';
import { topicPath, topicSlug } from '../../contract/topics.ts';
import { siteClient } from '../../tests/integration/helpers/site-client.ts';
import { MEMBER, waitUntilPublished, type LiveServer } from './live-server.ts';
import { refresh, served } from './step-approval.ts';

/** Threads of one topic approved together: the measured page then shows its whole related list (four). */
const SAME_TOPIC = 5;

/** The path of the largest topic of the catalogue in `catalogueDir` (its manifest lists most threads first). */
export async function largestTopicPath(catalogueDir: string): Promise<string> {
  const text = await readFile(path.join(catalogueDir, 'manifest.json'), 'utf8');
  const topic = ManifestSchema.parse(JSON.parse(text)).topics?.[0];
  if (!topic) throw new Error(`the catalogue in ${catalogueDir} lists no topic`);
  // With the slash: the address the topic page is built at, so nothing differs from a visit by link.
  return `${topicPath(topic.slug)}/`;
}

/** The waiting threads of the queue's first page, grouped by topic, the largest group first. */
async function topicGroups(base: string, admin: string): Promise<ReviewThread[][]> {
  const { apiOk } = siteClient(base);
  const queue = (await (
    await apiOk(base, '/api/threads/pending-review', { cookie: admin })
  ).json()) as ReviewQueuePage;
  const groups = new Map<string, ReviewThread[]>();
  for (const thread of queue.threads) {
    const slug = thread.topic_tag ? topicSlug(thread.topic_tag) : null;
    // An author with a Threads handle, as a curated thread has: its page links to their profile.
    if (slug && thread.handle.startsWith('@')) groups.set(slug, [...(groups.get(slug) ?? []), thread]);
  }
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

/**
 * The path of an approved thread's page on the live server. The admin approves up to SAME_TOPIC
 * waiting threads of one topic through the API (after a curation run of the simulated Threads when
 * the queue offers none), then it waits until the publish they start is over, so that no export or
 * render runs under Lighthouse. The page measured has a picture when one of them has one.
 */
export async function approvedThreadPath(
  live: LiveServer,
  progress: (message: string) => void,
): Promise<string> {
  const base = live.server.baseUrl;
  const { apiOk, signInCurator } = siteClient(base);
  // The curation account too: a curation run needs it.
  const admin = await signInCurator(base);
  let groups = await topicGroups(base, admin);
  if (groups.length === 0) {
    progress('lighthouse: a curation run (simulated Threads) to fill the review queue…');
    await refresh(base, admin);
    groups = await topicGroups(base, admin);
  }
  const chosen = groups[0]?.slice(0, SAME_TOPIC) ?? [];
  const last = chosen.at(-1);
  if (!last) throw new Error('the review queue holds no thread with a topic');
  progress(`lighthouse: approving ${chosen.length} threads of #${last.topic_tag} through the API…`);
  for (const thread of chosen)
    await apiOk(base, '/api/threads/approve', {
      method: 'POST',
      cookie: admin,
      body: { thread_id: thread.id },
    });
  await waitUntilPublished(
    live,
    () => served(`${base}/data/pages/all/1.json`, last.permalink),
    'the approved threads',
  );
  const thread = chosen.find((item) => item.image) ?? last;
  return `/thread/${thread.id}`;
}

/**
 * The path of MEMBER's public profile on the live server, once rendered: the API step approved them
 * already in a whole run; otherwise they sign in, ask for an invite and the admin approves it here.
 */
export async function approvedProfilePath(
  live: LiveServer,
  progress: (message: string) => void,
): Promise<string> {
  const base = live.server.baseUrl;
  const pagePath = `/${MEMBER}`;
  // The rendered page (a 404 until then): its heading is the member's name.
  const rendered = () => served(`${base}${pagePath}`, `@${MEMBER}`);
  if (!(await rendered())) {
    progress(`lighthouse: signing ${MEMBER} in, requesting an invite, the admin approving it…`);
    await siteClient(base).approvedMember(base, MEMBER);
  }
  await waitUntilPublished(live, rendered, 'the member profile');
  return pagePath;
}
