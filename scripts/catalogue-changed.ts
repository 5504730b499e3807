/**
 * `node scripts/catalogue-changed.ts [--state FILE]`, with CATALOGUE_URL set (e.g.
 * https://example.com/data): says whether `${CATALOGUE_URL}/manifest.json` changed (its generatedAt
 * or its version) since the state FILE (default .catalogue-state.json), and updates FILE when it did.
 *
 * Prints `changed=true` or `changed=false` (and appends the same line to $GITHUB_OUTPUT when set).
 * Exit codes: 0 answered (changed or not); 1 could not tell (the manifest could not be fetched or
 * read: fail the run rather than skip a rebuild silently); 2 bad usage.
 */
import { appendFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { checkCatalogue, fetchManifestState } from './deploy/catalogue-changed.ts';

const USAGE =
  'Usage: CATALOGUE_URL=https://example.com/data node scripts/catalogue-changed.ts [--state FILE]';

let stateFile: string;
try {
  const { values } = parseArgs({ options: { state: { type: 'string', default: '.catalogue-state.json' } } });
  stateFile = values.state;
} catch {
  console.error(USAGE);
  process.exit(2);
}
const catalogueUrl = process.env.CATALOGUE_URL;
if (!catalogueUrl) {
  console.error(USAGE);
  process.exit(2);
}

try {
  const result = await checkCatalogue(await fetchManifestState(catalogueUrl), stateFile);
  const line = `changed=${result.changed}`;
  console.log(line);
  console.error(
    result.changed
      ? `The catalogue changed (generatedAt ${result.current.generatedAt}, version ${result.current.version ?? 'none'}).`
      : `The catalogue is unchanged since ${result.current.generatedAt}.`,
  );
  if (process.env.GITHUB_OUTPUT) await appendFile(process.env.GITHUB_OUTPUT, `${line}\n`);
} catch (error) {
  console.error(`Could not tell whether the catalogue changed: ${(error as Error).message}`);
  process.exit(1);
}
