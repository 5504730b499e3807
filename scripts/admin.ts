/**
 * `npm run admin -- <command>`: the operator's commands (README, "Administration"), parsed and run by
 * scripts/admin/run.ts on this process's environment, stdout and stderr. Exit codes: 0 done, 1
 * refused or failed (one line on stderr), 2 a usage error (one line naming it, and the help hint).
 */
import { runAdminCli } from './admin/run.ts';

process.exitCode = await runAdminCli(process.argv.slice(2), {
  env: process.env,
  stdout: (line) => console.log(line),
  stderr: (line) => console.error(line),
});
// A live check's HTTP client can keep the process alive for a while after its answer.
process.exit();
