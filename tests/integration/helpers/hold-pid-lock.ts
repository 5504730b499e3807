// Child process for the pid-lock race test: tries to take the lock, says whether it got it, holds it until told.
import { acquirePidLock, DataDirLockedError } from '../../../server/db/pid-lock.ts';

const [dataDir, startAt] = process.argv.slice(2);
if (!dataDir || !startAt) throw new Error('usage: hold-pid-lock.ts DATA_DIR START_AT_MS');
// All contenders start their attempt at the same instant, whatever their process start-up took.
while (Date.now() < Number(startAt)) await new Promise((resolve) => setImmediate(resolve));
try {
  const lock = await acquirePidLock(dataDir);
  console.log('acquired');
  // Held until the test has every contender's answer (it closes our stdin): a contender that started
  // late on a busy machine still finds the lock taken.
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve));
  await lock.release();
} catch (error) {
  console.log(error instanceof DataDirLockedError ? 'locked' : `error: ${(error as Error).message}`);
}
