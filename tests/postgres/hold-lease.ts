/**
 * A stand-in for an instance that dies in the middle of a run: it takes the named job's lease on
 * DATABASE_URL (retrying while another run holds it), says `claimed` and then runs for ever, its
 * heartbeat renewing the lease, until the test kills it with SIGKILL.
 * Usage: node tests/postgres/hold-lease.ts <job> <lease ms>
 */
import { openPostgres } from '../../server/db/client.ts';

const [job = 'curate', leaseMs = '2000'] = process.argv.slice(2);
const database = openPostgres(process.env.DATABASE_URL ?? '');
const forever = () =>
  new Promise<never>(() => {
    console.log('claimed');
    // Keeps the process alive: the heartbeat's timer is unref'd.
    setInterval(() => {}, 60_000);
  });
// Bounded in time, not tries: under load each try takes longer.
const giveUpAt = Date.now() + 90_000;
while (Date.now() < giveUpAt) {
  const outcome = await database.withJobLock(job, forever, { leaseMs: Number(leaseMs) });
  if (outcome.ran) break;
  await new Promise((resolve) => setTimeout(resolve, 50));
}
console.error('the lease was never free');
process.exit(1);
