// @ts-check
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The server's layers, lowest first: a module may import its own layer and the ones below, never
 * one above (a route may call a service; a service never reaches into a route or a plugin).
 */
const SERVER_LAYERS = [
  ['http', 'config'],
  ['db'],
  ['repositories', 'threads', 'simulator'],
  ['views'],
  ['services'],
  ['publisher'],
  ['jobs'],
  ['plugins'],
  ['routes'],
];

/** The one server module that mounts the simulated provider (in simulated mode only). */
const SIMULATOR_MOUNT = 'server/plugins/threads-gateway.ts';

const SERVER_BASE_FILES = [
  'server/config.ts',
  'server/secrets.ts',
  'server/version.ts',
  'server/seeded-random.ts',
];

/**
 * One lint block per layer that forbids imports from every layer above it.
 * @returns {import('eslint').Linter.Config[]}
 */
function serverLayerRules() {
  /**
   * @param {string[]} folders
   * @param {number} index
   * @param {boolean} mountsSimulator
   * @returns {import('eslint').Linter.RuleEntry}
   */
  const rule = (folders, index, mountsSimulator) => {
    const above = SERVER_LAYERS.slice(index + 1).flat();
    const simulator =
      mountsSimulator || folders.includes('simulator')
        ? []
        : [
            {
              group: ['**/simulator/**'],
              message: `The simulated provider is a fake platform: only ${SIMULATOR_MOUNT} mounts it.`,
            },
          ];
    return [
      'error',
      {
        patterns: [
          {
            group: [
              ...above.map((folder) => `**/server/${folder}/**`),
              ...above.map((folder) => `../**/${folder}/**`),
              '**/app.ts',
              '**/main.ts',
            ],
            message: `server/${folders.join(', ')} may not import a higher layer (${above.join(', ')}): see eslint.config.js SERVER_LAYERS.`,
          },
          ...simulator,
        ],
      },
    ];
  };
  const layers = SERVER_LAYERS.slice(0, -1).map((folders, index) => ({
    // The top-level modules beside app.ts and main.ts hold settings and constants: the lowest layer.
    files: [...folders.map((folder) => `server/${folder}/**`), ...(index === 0 ? SERVER_BASE_FILES : [])],
    rules: { 'no-restricted-imports': rule(folders, index, false) },
  }));
  const routes = SERVER_LAYERS.length - 1;
  return [
    ...layers,
    // Routes and the app's entry files may import any layer, but never the simulator.
    {
      files: ['server/routes/**', 'server/app.ts', 'server/main.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { group: ['**/simulator/**'], message: `Only ${SIMULATOR_MOUNT} mounts the simulator.` },
            ],
          },
        ],
      },
    },
    {
      files: [SIMULATOR_MOUNT],
      rules: { 'no-restricted-imports': rule(SERVER_LAYERS[routes - 1] ?? [], routes - 1, true) },
    },
  ];
}

// Islands, their parts (src/components/react) and stores run in the browser: no server code. Zod only
// through the contract's schemas, built with contract/zod.ts (zod/mini, jitless: decision 052).
const BROWSER_ONLY = [
  { group: ['**/server/**', 'node:*'], message: 'Browser code cannot import server modules.' },
  {
    group: ['zod', 'zod/*', '**/build-*'],
    message:
      "Use the contract's schemas (contract/zod.ts configures zod for the page CSP); no build-time helpers.",
  },
];

/**
 * Forbids `layer` to import from the src/ folders above it.
 * @param {string} layer
 * @param {string[]} folders
 */
function above(layer, folders) {
  return {
    group: folders.map((folder) => `**/${folder}/**`),
    message: `${layer} may import only lower layers (lib <- stores <- components/react <- islands <- pages).`,
  };
}

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist.*/',
      '.astro/',
      'node_modules/',
      'test-output/',
      'playwright-report/',
      '.data/',
      'server/db/migrations/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  ...astro.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // Type-aware rules for TypeScript: a forgotten await is a bug we want the linter to catch.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    ...jsxA11y.configs.strict,
    languageOptions: { ...jsxA11y.configs.strict.languageOptions, globals: { ...globals.browser } },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Thread content and bios are user text: they must never be injected as HTML.
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Render user text as text.',
        },
      ],
    },
  },
  {
    // The site's layers import downwards only: lib <- stores <- components/react <- islands <- pages.
    // src/lib also holds build-time helpers, so it is not browser code; it just may not reach up.
    files: ['src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [above('src/lib', ['stores', 'components', 'islands'])] },
      ],
    },
  },
  {
    files: ['src/stores/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...BROWSER_ONLY, above('src/stores', ['components', 'islands'])] },
      ],
    },
  },
  {
    files: ['src/components/react/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...BROWSER_ONLY, above('src/components/react', ['islands'])] },
      ],
    },
  },
  {
    files: ['src/islands/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...BROWSER_ONLY,
            {
              group: ['./*', '**/islands/**'],
              message:
                'Only pages and layouts mount islands; a part two islands share goes in src/components/react.',
            },
          ],
        },
      ],
    },
  },
  ...serverLayerRules(),
  {
    // import() would slip past the layer rule above, and the server needs none.
    files: ['server/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression', message: 'Import statically, so the layer rule can see it.' },
      ],
    },
  },
  {
    // The admin commands also run inside the tests' process (decision 073): what they print and the
    // environment they read must be the run's (io), or a test would see the wrong ones.
    files: ['scripts/admin/**'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        ...['env', 'stdout', 'stderr', 'exit', 'exitCode', 'argv'].map((property) => ({
          object: 'process',
          property,
          message:
            'An admin command may run inside another process: read io.env, write through io.stdout and io.stderr, return the exit code.',
        })),
      ],
    },
  },
);
