import { execFileSync } from 'node:child_process';
import { constants, openSync, readSync, closeSync } from 'node:fs';
import { access, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, test } from 'vitest';
import {
  dataFolderWriteProbe,
  databaseWriteReason,
  fileWriteReason,
  PROBE_FILE,
} from '../../../../../server/routes/health/write-probes.ts';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

async function folder(): Promise<string> {
  const created = await mkdtemp(path.join(tmpdir(), 'ct-probe-'));
  folders.push(created);
  return created;
}

test('a writable data folder passes and keeps nothing; a missing one is created', async () => {
  const dataDir = await folder();
  expect(await dataFolderWriteProbe(dataDir)()).toBeNull();
  expect(await readdir(dataDir)).toEqual([]);

  const missing = path.join(dataDir, 'not', 'yet');
  expect(await dataFolderWriteProbe(missing)()).toBeNull();
  await access(missing);
});

test('a full disk is reported in the system words, with its code', async () => {
  const dataDir = await folder();
  await symlink('/dev/full', path.join(dataDir, PROBE_FILE));
  expect(await dataFolderWriteProbe(dataDir)()).toBe(
    'The data folder cannot be written: no space left on device (ENOSPC).',
  );
});

test('a write that hangs is reported after the deadline, and no second one starts while it hangs', async () => {
  const dataDir = await folder();
  const fifo = path.join(dataDir, PROBE_FILE);
  // Opening a FIFO for writing blocks until a reader comes: a real hung write.
  execFileSync('mkfifo', [fifo]);
  const probe = dataFolderWriteProbe(dataDir, 100);
  const late = 'The data folder did not confirm a write: no answer within 0.1 s.';
  expect(await probe()).toBe(late);
  expect(await probe()).toBe(late);

  // A reader releases the hung write. Calls made while it still runs start nothing; the first call
  // after it ended runs a new probe (which fails: a FIFO cannot be fsynced).
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    let answer = await probe();
    for (let attempt = 0; attempt < 100 && answer === late; attempt++) {
      await sleep(20);
      answer = await probe();
    }
    expect(answer).toMatch(/^The data folder cannot be written: .+ \(E[A-Z]+\)\.$/);
    // Exactly two probes wrote their line: the one that hung and the one that just ran.
    const buffer = Buffer.alloc(4096);
    const received = buffer.subarray(0, readSync(reader, buffer)).toString();
    expect(received.trim().split('\n')).toHaveLength(2);
  } finally {
    closeSync(reader);
  }
});

test('database refusals are named by their SQLSTATE, never by the driver message', () => {
  const refusal = (code: string) =>
    new Error('Failed query: insert into "app_meta" ...', {
      cause: Object.assign(new Error('role "secret_role" at db.internal cannot write'), { code }),
    });
  expect(databaseWriteReason(refusal('25006'))).toBe('it is read-only (25006)');
  expect(databaseWriteReason(refusal('53100'))).toBe('its disk is full (53100)');
  expect(databaseWriteReason(refusal('42501'))).toBe('permission denied (42501)');
  expect(databaseWriteReason(refusal('57P01'))).toBe('the connection failed (57P01)');
  expect(databaseWriteReason(refusal('23505'))).toBe('it refused the write (23505)');
  expect(databaseWriteReason(new Error('Connection terminated'))).toBe('it refused the write');
  expect(fileWriteReason(Object.assign(new Error('x'), { code: 'EROFS', errno: -30 }))).toBe(
    'read-only file system (EROFS)',
  );
});
