/**
 * What the notice mail tests share (decision 058): an app mailing into a real SMTP inbox, the
 * send-mail job as it runs, a submission to decide, and the member's settings over HTTP.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { NoticeMailState } from '../../../contract/notice-mail.ts';
import type { ManualSubmission } from '../../../contract/submission.ts';
import { loadConfig } from '../../../server/config.ts';
import { sendQueuedMail, type SendSummary } from '../../../server/services/mail/send-queued.ts';
import { smtpTransport } from '../../../server/services/mail/transport.ts';
import { api, startApp } from '../auth/helpers.ts';
import { TEST_SECRETS } from '../helpers/app.ts';
import { testDatabase } from '../helpers/database.ts';
import { startSmtpInbox, type SmtpInbox } from '../helpers/smtp-inbox.ts';
import { allPending } from '../helpers/review-queue.ts';

/** A data folder of its own: config refuses one that holds the project (CI clones it under /tmp). */
const DATA_DIR = mkdtempSync(path.join(tmpdir(), 'ct-notice-mail-test-'));
export const ORIGIN = 'http://localhost:4321';

export interface MailWorld {
  app: FastifyInstance;
  base: string;
  inbox: SmtpInbox;
}

export async function startMailWorld(env: Record<string, string> = {}): Promise<MailWorld> {
  const inbox = await startSmtpInbox();
  const { app, base } = await startApp({ SMTP_URL: inbox.url, ...env });
  return { app, base, inbox };
}

/** One run of the send-mail job, as the jobs run it, into the test inbox. */
export async function sendMail(inbox: SmtpInbox): Promise<SendSummary> {
  const { db } = await testDatabase();
  const config = loadConfig({ PUBLIC_URL: ORIGIN, SMTP_URL: inbox.url, DATA_DIR });
  const transport = smtpTransport(inbox.url);
  try {
    return await sendQueuedMail({ db, config, tokenKey: TEST_SECRETS.tokenKey, transport });
  } finally {
    transport.close();
  }
}

/** A mailed link, as the test app (which listens on `base`, not on PUBLIC_URL) answers it. */
export function onTestApp(base: string, link: string): string {
  const url = new URL(link);
  return `${base}${url.pathname}${url.search}`;
}

export async function saveNoticeMail(base: string, cookie: string, body: unknown): Promise<Response> {
  return api(base, '/api/user/notice-mail', { method: 'PUT', cookie, body });
}

export async function noticeMailOf(base: string, cookie: string): Promise<NoticeMailState> {
  return (await (await api(base, '/api/user/notice-mail', { cookie })).json()) as NoticeMailState;
}

/** Submits a thread by hand as `cookie`; its id in the review queue. */
export async function submit(
  base: string,
  cookie: string,
  admin: string,
  shortcode: string,
): Promise<string> {
  const response = await api(base, '/api/dashboard/manual-submission', {
    method: 'POST',
    cookie,
    body: { thread_url: `https://www.threads.com/@someone/post/${shortcode}` },
  });
  if (response.status !== 201) throw new Error(`submission refused: ${response.status}`);
  const { submission } = (await response.json()) as { submission: ManualSubmission };
  const queued = (await allPending(base, admin)).find((t) => t.permalink === submission.permalink);
  if (!queued) throw new Error(`${shortcode} is not in the queue`);
  return queued.id;
}

/** An admin's decision over HTTP, which must succeed. */
export async function decide(base: string, admin: string, path: string, body: unknown): Promise<void> {
  const response = await api(base, path, { method: 'POST', cookie: admin, body });
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
}
