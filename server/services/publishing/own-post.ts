import type { Database } from '../../db/client.ts';
import { ownPostPages, ownPostToThread } from './post-to-thread.ts';
import type { NewThread } from '../../repositories/threads.ts';
import type { User } from '../../repositories/users.ts';
import type { ThreadsGateway } from '../../threads/gateway.ts';
import { createTokenStore } from '../tokens/token-store.ts';

/** How far back through the member's own posts a submitted link is looked for (pages of 50). */
const PAGES_TO_SEARCH = 4;

/**
 * The member's own post behind a submitted shortcode, as a thread row with its fields and
 * insights from the API; null when it is not theirs, or the API cannot tell right now (the
 * submission then keeps just the link, like anyone else's post).
 */
export async function findOwnPost(
  deps: { db: Database; gateway: ThreadsGateway; tokenKey: Buffer },
  user: User,
  shortcode: string,
): Promise<NewThread | null> {
  const grant = await createTokenStore(deps).grantOf(user);
  if (grant === null) return null;
  try {
    for await (const posts of ownPostPages(deps.gateway, grant.token, PAGES_TO_SEARCH)) {
      const post = posts.find((candidate) => candidate.shortcode === shortcode);
      // Insights that could not be read leave the post without likes and replies: a submission has
      // no run to report to, and curation reports the same member's failed calls (decision 068).
      if (post) return (await ownPostToThread(deps.gateway, grant, post, 'manual_submission', user.id)).row;
    }
    return null;
  } catch {
    return null;
  }
}
