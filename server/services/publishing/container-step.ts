import { parseThreadUrl } from '../../../contract/thread-url.ts';
import type { GeneratedPostRow, GeneratedPostsRepository } from '../../repositories/generated-posts.ts';
import { ThreadsApiError, type ThreadsGateway } from '../../threads/gateway.ts';
import { ownPostPages } from './post-to-thread.ts';

const MINUTE = 60_000;
/** Threads expires a container 24 hours after it was made (threads-api.md section 10, publishing). */
export const CONTAINER_LIFETIME_MS = 24 * 60 * MINUTE;
/** A container still IN_PROGRESS is looked at again after this wait, without spending an attempt. */
export const PROCESSING_WAIT_MS = MINUTE;
/** How long a container may stay IN_PROGRESS before the attempt counts as failed. */
export const PROCESSING_BOUND_MS = 30 * MINUTE;
/** Pages of the curator's own posts searched for a post whose publish answer was lost. */
const RECOVERY_PAGES = 2;

/** What one post's turn came to (errors from Threads are thrown to the caller). */
export type ContainerStep =
  /** `recovered`: published by an earlier attempt whose answer was lost (already in the quota). */
  | { step: 'published'; mediaId: string | null; threadUrl: string | null; recovered: boolean }
  /** Not yet: look again at `until`, no attempt spent. */
  | { step: 'wait'; reason: string; until: Date }
  /** The attempt failed; the container is forgotten, the next attempt makes a new one. */
  | { step: 'new_container'; reason: string };

export interface StepDeps {
  gateway: ThreadsGateway;
  posts: GeneratedPostsRepository;
  token: string;
  now: Date;
  /** Media ids already recorded for published generated posts (never claimed twice). */
  claimed: ReadonlySet<string>;
}

/**
 * One pending post through Threads' two publishing steps, guided by the container's status
 * (threads-api.md section 10): a stored container is asked first, so a retry never posts twice.
 * FINISHED is published; PUBLISHED means an earlier answer was lost and the post is recorded;
 * IN_PROGRESS waits; EXPIRED (or older than 24 hours by our clock) gets a new container; ERROR
 * fails the attempt with Threads' reason.
 */
export async function publishThroughContainer(
  deps: StepDeps,
  post: GeneratedPostRow,
): Promise<ContainerStep> {
  const { gateway, token, now } = deps;
  const age = (from: Date | null) => now.getTime() - (from ?? now).getTime();
  let creationId = post.creationId;
  let createdAt = post.containerCreatedAt;
  if (creationId && age(createdAt) >= CONTAINER_LIFETIME_MS) creationId = null;

  // At most two containers a turn: the stored one, and a new one when that one expired.
  for (let pass = 0; pass < 2; pass++) {
    if (!creationId) {
      creationId = await gateway.createTextContainer(token, {
        text: post.content,
        quotePostId: post.quotePostId,
      });
      createdAt = now;
      await deps.posts.saveCreationId(post.id, creationId, now);
    }
    const { status, errorMessage } = await gateway.containerStatus(token, creationId);
    if (status === 'FINISHED') return publish(deps, creationId);
    if (status === 'PUBLISHED') return recover(deps, post, createdAt);
    if (status === 'ERROR')
      return {
        step: 'new_container',
        reason: `Threads could not process the post: ${(errorMessage ?? 'it gave no reason').replace(/\.$/, '')}.`,
      };
    if (status === 'IN_PROGRESS') {
      if (age(createdAt) < PROCESSING_BOUND_MS)
        return {
          step: 'wait',
          reason: 'Threads is still processing the post; it is published once ready.',
          until: new Date(now.getTime() + PROCESSING_WAIT_MS),
        };
      return {
        step: 'new_container',
        reason: `Threads was still processing the post after ${PROCESSING_BOUND_MS / MINUTE} minutes.`,
      };
    }
    creationId = null; // EXPIRED: not published within 24 hours
  }
  return { step: 'new_container', reason: 'Threads expired the post before it could be published.' };
}

/** Publishes a FINISHED container; Threads not finding it (a known race) asks for a new one. */
async function publish(deps: StepDeps, creationId: string): Promise<ContainerStep> {
  try {
    const result = await deps.gateway.publishContainer(deps.token, creationId);
    return { step: 'published', mediaId: result.id, threadUrl: ourLink(result.permalink), recovered: false };
  } catch (error) {
    // Code 24, subcode 4279009 "Media Not Found": Threads lost the container (fbsamples/threads_api#70).
    if (error instanceof ThreadsApiError && error.code === 24 && error.subcode === 4279009)
      return { step: 'new_container', reason: 'Threads could not find the post to publish.' };
    throw error;
  }
}

/**
 * The container was published but its answer never reached us: the post is recorded as published
 * (never posted twice), with its id and link when exactly one unclaimed post of the curator's with
 * the same text appeared since the container was made; without them otherwise.
 */
async function recover(
  deps: StepDeps,
  post: GeneratedPostRow,
  createdAt: Date | null,
): Promise<ContainerStep> {
  const since = createdAt?.getTime() ?? 0;
  const matches = [];
  try {
    for await (const page of ownPostPages(deps.gateway, deps.token, RECOVERY_PAGES)) {
      matches.push(
        ...page.filter(
          (own) =>
            own.text === post.content &&
            !deps.claimed.has(own.id) &&
            (own.timestamp === null || Date.parse(own.timestamp) >= since - MINUTE),
        ),
      );
    }
  } catch {
    // The post went out either way: record it without its link rather than post it again.
  }
  const [found] = matches;
  if (matches.length !== 1 || !found)
    return { step: 'published', mediaId: null, threadUrl: null, recovered: true };
  return { step: 'published', mediaId: found.id, threadUrl: ourLink(found.permalink), recovered: true };
}

/** Only a Threads post link ever reaches an href. */
function ourLink(permalink: string | null): string | null {
  const link = permalink ? parseThreadUrl(permalink) : null;
  return link?.ok ? link.link.url : null;
}
