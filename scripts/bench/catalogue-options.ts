/** `npm run bench:catalogue` options: which sizes to run, and the smoke mode `npm test` runs. */
import { SIZES, type SizeName } from './catalogue-report.ts';

export interface CatalogueOptions {
  help: boolean;
  /** The sizes served, built and measured in Chromium, smallest first; the export runs at the largest. */
  sizes: SizeName[];
  /** Site builds per size (the quickest counts). */
  builds: number;
  /** One quick pass that checks every figure was measured, and exits 1 when one is missing. */
  smoke: boolean;
}

export const CATALOGUE_HELP = `npm run bench:catalogue [-- options]

Builds and serves the site at each size, measures it in Chromium (home, a click on Text, searches)
and exports the largest size's approved threads from PGlite. Prints a table, then its JSON on one
line; everything measured goes to test-output/bench/catalogue.json. Progress goes to stderr.

Options:
  --sizes LIST   comma-separated sizes among ${Object.keys(SIZES).join(', ')} (default: all)
  --smoke        the 1k size, one build, then check every figure was measured (exit 1 if not);
                 what npm test runs
  --help         this text
`;

/** Parses the command line (after `--`); throws with a message for anything it does not know. */
export function parseCatalogueOptions(argv: readonly string[]): CatalogueOptions {
  const names = Object.keys(SIZES) as SizeName[];
  const options: CatalogueOptions = { help: false, sizes: [...names], builds: 2, smoke: false };
  for (let index = 0; index < argv.length; index++) {
    const [flag, inline] = (argv[index] ?? '').split(/=(.*)/s, 2) as [string, string | undefined];
    switch (flag) {
      case '--help':
      case '-h':
        options.help = true;
        break;
      case '--smoke':
        Object.assign(options, { smoke: true, sizes: ['1k'], builds: 1 });
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
