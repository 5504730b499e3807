import type { ReviewQueueQuery } from '../../../contract/review-queue-schemas.ts';
import type { ReviewQueuePage } from '../../../contract/review-queue.ts';
import type { ReviewThread } from '../../../contract/review.ts';
import { api } from '../auth/helpers.ts';

/** One page of the review queue as the admin's dashboard asks for it. */
export async function pendingPage(
  base: string,
  cookie: string,
  query: ReviewQueueQuery = {},
): Promise<ReviewQueuePage> {
  const params = new URLSearchParams(
    Object.entries(query).filter((entry): entry is [string, string] => !!entry[1]),
  );
  const response = await api(base, `/api/threads/pending-review?${params}`, { cookie });
  if (response.status !== 200) throw new Error(`pending-review: ${response.status} ${await response.text()}`);
  return (await response.json()) as ReviewQueuePage;
}

/** The whole review queue, page after page. */
export async function allPending(
  base: string,
  cookie: string,
  query: Omit<ReviewQueueQuery, 'cursor'> = {},
): Promise<ReviewThread[]> {
  const threads: ReviewThread[] = [];
  let cursor: string | null | undefined;
  do {
    const page = await pendingPage(base, cookie, { ...query, ...(cursor ? { cursor } : {}) });
    threads.push(...page.threads);
    cursor = page.next_cursor;
  } while (cursor);
  return threads;
}
