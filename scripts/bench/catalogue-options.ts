/** `npm run bench:catalogue` options: which sizes to run, and the smoke mode `npm test` runs. */
import { SIZES, type SizeName } from './catalogue-report.ts';

export interface CatalogueOptions {
  help: boolean;
  /** The sizes served, built and measured in Chromium, smallest first; the export runs at the largest. */
  sizes: SizeName[];
  /** Threads at each size (the smoke's smallest size is smaller than its name says). */
  counts: Record<SizeName, number>;
  /** Site builds per size (the quickest counts). */
  builds: number;
  /** One quick pass that checks every figure was measured, and exits 1 when one is missing. */
  smoke: boolean;
}

/**
 * The smoke's threads: enough for several pages of the grid, text threads for the click and words
 * for the searches, yet a build and an export of seconds (see smoke-plan.ts).
 */
export const SMOKE_CATALOGUE_THREADS = 100;

export const CATALOGUE_HELP = `npm run bench:catalogue [-- options]

Builds and serves the site at each size, measures it in Chromium (home, a click on Text, searches)
and exports the largest size's approved threads from PGlite. Prints a table, then its JSON on one
line; everything measured goes to test-output/bench/catalogue.json. Progress goes to stderr.

Options:
  --sizes LIST   comma-separated sizes among ${Object.keys(SIZES).join(', ')} (default: all)
  --smoke        ${SMOKE_CATALOGUE_THREADS} threads in the 1k column, one build, then check every figure
                 was measured (exit 1 if not); also part of node scripts/bench/run.ts --smoke
  --help         this text
`;

/** Parses the command line (after `--`); throws with a message for anything it does not know. */
export function parseCatalogueOptions(argv: readonly string[]): CatalogueOptions {
  const names = Object.keys(SIZES) as SizeName[];
  const options: CatalogueOptions = {
    help: false,
    sizes: [...names],
    counts: { ...SIZES },
    builds: 2,
    smoke: false,
  };
  for (let index = 0; index < argv.length; index++) {
    const [flag, inline] = (argv[index] ?? '').split(/=(.*)/s, 2) as [string, string | undefined];
    switch (flag) {
      case '--help':
      case '-h':
        options.help = true;
        break;
      case '--smoke':
        Object.assign(options, {
          smoke: true,
          sizes: ['1k'],
          counts: { ...SIZES, '1k': SMOKE_CATALOGUE_THREADS },
          builds: 1,
        });
        break;
      case '--sizes': {
        const wanted = (inline ?? argv[++index] ?? '')
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean);
        const unknown = wanted.filter((name) => !(names as string[]).includes(name));
        if (wanted.length === 0 || unknown.length > 0)
          throw new Error(
            `--sizes takes sizes among ${names.join(', ')}; not ${unknown.join(', ') || 'nothing'}`,
          );
        options.sizes = names.filter((name) => wanted.includes(name));
        break;
      }
      default:
        throw new Error(`unknown option ${flag} (see npm run bench:catalogue -- --help)`);
    }
  }
  return options;
}
