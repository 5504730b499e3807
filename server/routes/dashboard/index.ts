import type { FastifyPluginAsync } from 'fastify';
import {
  GeneratedPostsSchema,
  ManualSubmissionCreatedSchema,
  ManualSubmissionRequestSchema,
  ManualSubmissionsSchema,
  notesProblem,
  SUBMISSIONS_PER_HOUR,
} from '../../../contract/submission.ts';
import { authorlessUrl, parseThreadUrl } from '../../../contract/thread-url.ts';
import type { Database } from '../../db/client.ts';
import { isAdmin } from '../../plugins/access.ts';
import { limit } from '../../plugins/rate-limits.ts';
import { createAuditLogRepository } from '../../repositories/audit-log.ts';
import { createGeneratedPostsRepository } from '../../repositories/generated-posts.ts';
import { createManualSubmissionsRepository } from '../../repositories/manual-submissions.ts';
import { createThreadsRepository, type ThreadRow } from '../../repositories/threads.ts';
import type { ThreadsGateway } from '../../threads/gateway.ts';
import { toGeneratedPost, toManualSubmission } from '../../views/thread-views.ts';
import { HttpError } from '../../http/http-error.ts';
import type { ZodTypeProvider } from '../../http/route-schemas.ts';
import { findOwnPost } from '../../services/publishing/own-post.ts';
import { isOptedOut } from '../../services/authors/opted-out-filter.ts';
import { createCardConsent } from '../../services/authors/card-consent.ts';
import { OPTED_OUT_SUBMISSION } from '../../../contract/authors.ts';

const HOUR = 3_600_000;

const DUPLICATE_DETAIL: Record<ThreadRow['status'], string> = {
  pending: 'This thread has already been submitted and is waiting for review.',
  approved: 'This thread is already in the curated catalogue.',
  rejected: 'This thread was already reviewed and not selected.',
  hidden: 'This thread was removed from Threads and cannot be submitted again.',
  removed: 'Its author took this thread out of the catalogue.',
};

export interface DashboardRoutesOptions {
  db: Database;
  gateway: ThreadsGateway;
  tokenKey: Buffer;
  adminUsernames: readonly string[];
  rateLimitMultiplier: number;
}

/** Members submit thread links and follow them, and the posts the curator publishes about them. */
const dashboardRoutes: FastifyPluginAsync<DashboardRoutesOptions> = async (server, options) => {
  const app = server.withTypeProvider<ZodTypeProvider>();
  const { db, adminUsernames } = options;
  const threads = createThreadsRepository(db);
  const submissions = createManualSubmissionsRepository(db);
  const generated = createGeneratedPostsRepository(db);
  const audit = createAuditLogRepository(db);
  const cardConsent = createCardConsent(db);

  /** Throws 429 with Retry-After when the member made their hourly number of submissions. */
  async function refuseOverLimit(userId: string, tx: Database = db): Promise<void> {
    const now = Date.now();
    const recent = await submissions.countSince(userId, new Date(now - HOUR), tx);
    if (recent.count < SUBMISSIONS_PER_HOUR) return;
    const wait = recent.oldest ? Math.max(1, Math.ceil((recent.oldest.getTime() + HOUR - now) / 1000)) : 3600;
    throw new HttpError(
      429,
      `You can submit ${SUBMISSIONS_PER_HOUR} threads per hour. Please try again in ${Math.ceil(wait / 60)} minutes.`,
      { 'Retry-After': String(wait) },
    );
  }

  /** Throws 409 with the reason when a post with this shortcode is already known. */
  async function refuseDuplicate(shortcode: string, tx: Database = db): Promise<void> {
    const existing = await threads.findByShortcode(shortcode, tx);
    if (existing) throw new HttpError(409, DUPLICATE_DETAIL[existing.status]);
  }

  app.post(
    '/api/dashboard/manual-submission',
    {
      config: { access: 'member', rateLimit: limit('submissionAttempt', options.rateLimitMultiplier) },
      schema: { body: ManualSubmissionRequestSchema, response: { 201: ManualSubmissionCreatedSchema } },
    },
    async (request, reply) => {
      const user = await request.authUser();
      const body = request.body;
      const parsed = parseThreadUrl(body.thread_url);
      if (!parsed.ok) throw new HttpError(400, parsed.problem);
      const { link } = parsed;
      const notesRefused = body.notes ? notesProblem(body.notes) : null;
      if (notesRefused) throw new HttpError(400, notesRefused);
      const notes = body.notes?.trim() || null;

      // Cheap refusals first: a duplicate or an over-limit request costs no call to Threads.
      await refuseOverLimit(user.id);
      await refuseDuplicate(link.shortcode);

      // Authorship comes from Threads, never from the handle typed into the link (issue 34,
      // decision 063): the member's own post is found in their own post list, whatever the link
      // says; anyone else's stays without an author until a search result tells it.
      const own = await findOwnPost(options, user, link.shortcode);
      if (own && (await isOptedOut(db, own.username, own.ownerUserId)))
        throw new HttpError(403, OPTED_OUT_SUBMISSION);
      // A typed handle attributes nothing, but one that names an opted-out author is still refused:
      // refusing more never gives anyone a post.
      if (!own && (await isOptedOut(db, link.username, null))) throw new HttpError(403, OPTED_OUT_SUBMISSION);
      const row = own ?? {
        shortcode: link.shortcode,
        source: 'manual_submission' as const,
        username: null,
        permalink: authorlessUrl(link.shortcode),
      };

      const { created, cardsChanged } = await db.transaction(async (tx) => {
        await submissions.lockMember(user.id, tx);
        await refuseOverLimit(user.id, tx);
        // Before the insert: the row's trigger reads the consent (decision 070). Unticked withdraws nothing.
        const consent = body.show_as_cards ? await cardConsent.set(user, true, tx) : null;
        const thread = await threads.insertIfNew(row, tx);
        if (!thread) {
          await refuseDuplicate(link.shortcode, tx);
          throw new HttpError(409, DUPLICATE_DETAIL.pending);
        }
        const submission = await submissions.create(
          { threadId: thread.id, userId: user.id, threadUrl: link.url, notes },
          tx,
        );
        await audit.record(
          {
            actorUserId: user.id,
            action: 'submission.create',
            subject: thread.id,
            details: { url: link.url },
          },
          tx,
        );
        return { created: toManualSubmission(submission, thread), cardsChanged: consent?.changedOnSite ?? 0 };
      });
      // The member's approved posts already on show now appear as cards.
      if (cardsChanged > 0) app.contentChanged('threads');
      return reply.status(201).send({ submission: created });
    },
  );

  const member = { access: 'member' as const };
  const mine = { config: member, schema: { response: { 200: ManualSubmissionsSchema } } };
  app.get('/api/dashboard/manual-submissions', mine, async (request) => {
    const user = await request.authUser();
    const rows = await submissions.listForUser(user.id);
    return { submissions: rows.map(({ submission, thread }) => toManualSubmission(submission, thread)) };
  });

  // Admins follow every generated post; a member sees the ones about their own submissions.
  const posts = { config: member, schema: { response: { 200: GeneratedPostsSchema } } };
  app.get('/api/dashboard/generated-posts', posts, async (request) => {
    const user = await request.authUser();
    const admin = await isAdmin(user, adminUsernames, db);
    const rows = admin ? await generated.listAll() : await generated.listForSubmitter(user.id);
    return { posts: rows.map(({ post, sourceUrl }) => toGeneratedPost(post, sourceUrl, { admin })) };
  });
};

export default dashboardRoutes;
