import { expect, test, vi } from 'vitest';
import type { Config } from '../../../../server/config.ts';
import type { DatabaseHandle } from '../../../../server/db/client.ts';
import { JOBS, runJob, type Job, type JobContext } from '../../../../server/jobs/index.ts';

function contextWith(withJobLock: DatabaseHandle['withJobLock']) {
  const requestSitePublish = vi.fn();
  const ctx = {
    config: { refreshIntervalMinutes: 45 } as Config,
    database: { withJobLock } as unknown as DatabaseHandle,
    requestSitePublish,
  } as unknown as JobContext;
  return { ctx, requestSitePublish };
}

test('the job list names each job once, and the curation interval is the configured one', () => {
  expect(JOBS.map((job) => job.name)).toEqual([
    'refresh-threads-tokens',
    'curate',
    'publish-generated-posts',
    'refresh-pictures',
    'purge-expired-sessions',
    'backup',
    'publish-digest',
    'send-mail',
    'publish-site',
  ]);
  const curate = JOBS.find((job) => job.name === 'curate');
  expect(curate?.interval({ refreshIntervalMinutes: 45 } as Config)).toBe(45 * 60_000);
});

test('the scheduled backup runs on the embedded database only, every BACKUP_INTERVAL_HOURS, never at 0', () => {
  const backup: Job | undefined = JOBS.find((job) => job.name === 'backup');
  const on = (kind: DatabaseHandle['kind'], intervalHours: number) =>
    backup?.enabled?.({
      config: { backups: { intervalHours } } as Config,
      database: { kind } as DatabaseHandle,
    } as JobContext);
  expect(on('pglite', 24)).toBe(true);
  expect(on('pglite', 0)).toBe(false);
  expect(on('postgres', 24)).toBe(false);
  expect(backup?.interval({ backups: { intervalHours: 6 } } as Config)).toBe(6 * 3_600_000);
});

test('the mail outbox is sent only where SMTP_URL is set', () => {
  const sendMail: Job | undefined = JOBS.find((job) => job.name === 'send-mail');
  const on = (smtpUrl: string | undefined) =>
    sendMail?.enabled?.({ config: { mail: { smtpUrl, from: 'x@example.com' } } as Config } as JobContext);
  expect(on('smtp://127.0.0.1:2525')).toBe(true);
  expect(on(undefined)).toBe(false);
});

test('a locked job asks for the lock of its name and reports a lock held elsewhere as not run', async () => {
  const locks: string[] = [];
  const { ctx } = contextWith(async (name) => {
    locks.push(name);
    return { ran: false };
  });
  expect(await runJob('curate', ctx, 'admin')).toEqual({ ran: false });
  expect(locks).toEqual(['curate']);
});

test('the per-instance site publish runs without the job lock', async () => {
  const withJobLock = vi.fn();
  const { ctx, requestSitePublish } = contextWith(withJobLock);
  expect(await runJob('publish-site', ctx, 'schedule')).toEqual({ ran: true, result: undefined });
  expect(requestSitePublish).toHaveBeenCalledOnce();
  expect(withJobLock).not.toHaveBeenCalled();
});
