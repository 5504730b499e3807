import { expect } from 'vitest';
import type { GeneratedPost } from '../../../contract/submission.ts';
import { api } from '../auth/helpers.ts';
import { allPending } from './review-queue.ts';

/** A member submits `link`, and the admin approves it: a generated post is queued for the curator. */
export async function submitAndApprove(
  base: string,
  member: string,
  admin: string,
  link: string,
  notes = '',
): Promise<void> {
  const created = await api(base, '/api/dashboard/manual-submission', {
    method: 'POST',
    cookie: member,
    body: { thread_url: link, notes },
  });
  expect(created.status).toBe(201);
  const queue = await allPending(base, admin, { source: 'manual_submission' });
  // By shortcode: the queue shows the post's own link, which names no typed handle (decision 063).
  const shortcode = link.split('/').at(-1) ?? '';
  const thread = queue.find((item) => item.permalink.split('/').at(-1) === shortcode);
  if (!thread) throw new Error('the submission is not in the review queue');
  const approved = await api(base, '/api/threads/approve', {
    method: 'POST',
    cookie: admin,
    body: { thread_id: thread.id },
  });
  expect(approved.status).toBe(200);
}

/** The generated posts a signed-in user sees on the dashboard. */
export async function generatedPosts(base: string, cookie: string): Promise<GeneratedPost[]> {
  const response = await api(base, '/api/dashboard/generated-posts', { cookie });
  expect(response.status).toBe(200);
  return ((await response.json()) as { posts: GeneratedPost[] }).posts;
}
