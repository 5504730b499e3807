import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, test } from 'vitest';
import {
  NOTES_MAX_LENGTH,
  SUBMISSIONS_PER_HOUR,
  type ManualSubmission,
} from '../../../contract/submission.ts';
import { THREAD_URL_MESSAGES } from '../../../contract/thread-url.ts';
import { auditLog } from '../../../server/db/schema.ts';
import { ownPostsFor } from '../../../server/simulator/seed-posts.ts';
import { api, approvedMember, signIn, signInCurator, startApp } from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';
import { allPending } from '../helpers/review-queue.ts';

// Members submit thread links over real HTTP, on the worker's database (PGlite, or PostgreSQL with
// DATABASE_URL, where the simultaneous submissions race for real).
let app: FastifyInstance;
let base: string;

beforeEach(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp({ CURATION_KEYWORDS: 'typography', CURATION_TAGS: 'UXDesign' }));
});
afterEach(() => app.close());

const submit = (cookie: string, body: unknown) =>
  api(base, '/api/dashboard/manual-submission', { method: 'POST', cookie, body });

async function detail(response: Response): Promise<string> {
  return ((await response.json()) as { detail: string }).detail;
}

async function mySubmissions(cookie: string): Promise<ManualSubmission[]> {
  const response = await api(base, '/api/dashboard/manual-submissions', { cookie });
  expect(response.status).toBe(200);
  return ((await response.json()) as { submissions: ManualSubmission[] }).submissions;
}

test('a member without an approved profile is refused with a detail, on every submission call', async () => {
  const visitor = await signIn(base, 'newcomer');
  const link = 'https://www.threads.com/@someone/post/ABCdef123';
  for (const response of [
    await submit(visitor, { thread_url: link }),
    await api(base, '/api/dashboard/manual-submissions', { cookie: visitor }),
    await api(base, '/api/dashboard/generated-posts', { cookie: visitor }),
  ]) {
    expect(response.status).toBe(403);
    expect(await detail(response)).toMatch(/Only approved members can submit threads/);
  }
  expect((await api(base, '/api/dashboard/manual-submissions')).status).toBe(401);
});

test('a link is stored in canonical form, listed for its member, and refused again in any other form', async () => {
  const alice = await approvedMember(base, 'alice');
  const created = await submit(alice, {
    thread_url: '  https://threads.net/@Some.One/post/ABCdef123?xmt=AQG  ',
    notes: '  Great type scale walkthrough.  ',
  });
  expect(created.status).toBe(201);
  const { submission } = (await created.json()) as { submission: ManualSubmission };
  expect(submission).toMatchObject({
    thread_url: 'https://www.threads.com/@some.one/post/ABCdef123',
    notes: 'Great type scale walkthrough.',
    status: 'pending',
    // The handle typed into the link names no one (decision 063): no author until Threads tells it.
    handle: 'Threads post',
    permalink: 'https://www.threads.com/t/ABCdef123',
  });
  expect(submission.avatar).toMatch(/^data:image\/svg\+xml/);
  expect(await mySubmissions(alice)).toEqual([submission]);
  const { db } = await testDatabase();
  const audit = await db.select().from(auditLog).where(eq(auditLog.action, 'submission.create'));
  expect(audit.map((row) => row.details)).toEqual([{ url: submission.thread_url }]);

  for (const again of [
    'https://www.threads.com/@some.one/post/ABCdef123',
    'https://www.threads.com/t/ABCdef123',
  ]) {
    const duplicate = await submit(alice, { thread_url: again });
    expect(duplicate.status).toBe(409);
    expect(await detail(duplicate)).toBe('This thread has already been submitted and is waiting for review.');
  }
  const bob = await approvedMember(base, 'bob');
  expect((await submit(bob, { thread_url: 'https://www.threads.com/t/ABCdef123' })).status).toBe(409);
  expect(await mySubmissions(bob)).toEqual([]);
});

test('bad input gets a readable 400 and stores nothing', async () => {
  const alice = await approvedMember(base, 'alice');
  const cases: [unknown, string][] = [
    [{ thread_url: '   ' }, THREAD_URL_MESSAGES.required],
    [{ thread_url: 'http://www.threads.com/@a/post/ABCdef123' }, THREAD_URL_MESSAGES.notHttps],
    [{ thread_url: 'https://evil.example/@a/post/ABCdef123' }, THREAD_URL_MESSAGES.notThreads],
    [{ thread_url: 'https://www.threads.com/@a' }, THREAD_URL_MESSAGES.notThreads],
    [
      { thread_url: 'https://www.threads.com/@a/post/ABCdef123', notes: 'x'.repeat(NOTES_MAX_LENGTH + 1) },
      `Notes can be at most ${NOTES_MAX_LENGTH} characters.`,
    ],
    [
      { thread_url: 'https://www.threads.com/@a/post/ABCdef123', notes: 'nul \u0000 inside' },
      'Notes cannot contain control or text-direction characters.',
    ],
    [
      { thread_url: 'https://www.threads.com/@a/post/ABCdef123', notes: 'flip \u202E txt' },
      'Notes cannot contain control or text-direction characters.',
    ],
    [{ thread_url: 'https://www.threads.com/@a/post/ABCdef123', extra: 1 }, 'Unknown field: extra.'],
    [{ notes: 'no link' }, 'thread_url: thread_url must be a link to a Threads post'],
  ];
  for (const [body, message] of cases) {
    const response = await submit(alice, body);
    expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    expect(await detail(response)).toBe(message);
  }
  expect(await mySubmissions(alice)).toEqual([]);
});

test(
  `simultaneous submissions: exactly ${SUBMISSIONS_PER_HOUR} per hour pass, the rest get 429 with Retry-After`,
  { tags: ['engine'] },
  async () => {
    const alice = await approvedMember(base, 'alice');
    const answers = await Promise.all(
      Array.from({ length: SUBMISSIONS_PER_HOUR + 3 }, (_, i) =>
        submit(alice, {
          thread_url: `https://www.threads.com/@someone/post/CODE${String(i).padStart(4, '0')}`,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(SUBMISSIONS_PER_HOUR);
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited).toHaveLength(3);
    for (const answer of limited) {
      const wait = Number(answer.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(3600);
      expect(await detail(answer)).toMatch(/You can submit 10 threads per hour/);
    }
    expect(await mySubmissions(alice)).toHaveLength(SUBMISSIONS_PER_HOUR);
    // Another member has a limit of their own.
    const bob = await approvedMember(base, 'bob');
    expect((await submit(bob, { thread_url: 'https://www.threads.com/t/BOBcode1' })).status).toBe(201);
  },
);

test('a member’s own post gets its text from the API (no counts without insights); the queue merges it newest first', async () => {
  const admin = await signInCurator(base);
  await api(base, '/api/admin/refresh', { method: 'POST', cookie: admin });
  const alice = await approvedMember(base, 'alice');
  const own = ownPostsFor('alice')[0];
  if (!own) throw new Error('alice has no seeded posts');
  const created = await submit(alice, { thread_url: `https://www.threads.com/t/${own.shortcode}` });
  expect(created.status).toBe(201);
  const { submission } = (await created.json()) as { submission: ManualSubmission };
  expect(submission).toMatchObject({
    handle: '@alice',
    content: own.text,
    // Members grant threads_basic only (decision 024): insights need threads_manage_insights.
    likes: null,
    replies: null,
    permalink: `https://www.threads.com/@alice/post/${own.shortcode}`,
  });

  const other = await submit(alice, {
    thread_url: 'https://www.threads.com/@someone/post/NEWEST123',
    notes: 'Worth a look.',
  });
  expect(other.status).toBe(201);
  const queue = await allPending(base, admin);
  const sources = new Set(queue.map((thread) => thread.source));
  expect(sources).toEqual(new Set(['public_search', 'public_tag', 'manual_submission']));
  const times = queue.map((thread) => Date.parse(thread.timestamp ?? ''));
  expect(times).toEqual([...times].sort((a, b) => b - a));
  // Submitted just now, so it is the newest item of the merged queue; the admin reads the note.
  expect(queue[0]).toMatchObject({
    permalink: 'https://www.threads.com/t/NEWEST123',
    source: 'manual_submission',
    notes: 'Worth a look.',
  });
  expect(queue.find((thread) => thread.source === 'public_search')).not.toHaveProperty('notes');
});
