import { catalogueCacheControl, siteCacheControl } from '../../../http/site-files.ts';
import { securityHeaders, STRICT_CSP } from '../../../http/security-headers.ts';
import { unionCsp } from './csp-union.ts';
import { NOT_FOUND_PAGE, type SitePage } from './site-pages.ts';

export interface NginxSiteOptions {
  /** The `listen` directive's arguments: `80`, `127.0.0.1:8080`, `443 ssl http2`. */
  listen: string;
  /** `server_name`: the public host name. */
  serverName: string;
  /** The built site folder (absolute). */
  root: string;
  /** The public catalogue folder (absolute) the Node server exports into: nginx serves /data/* from it. */
  catalogueDir: string;
  /** Where the Node server listens: `http://127.0.0.1:4321`. */
  apiUpstream: string;
  /** Path prefixes only Node answers besides `/api/`, `/thread/` and `/social/` (the simulated Threads provider's). */
  nodePaths?: readonly string[] | undefined;
  /** The built pages and their exact CSPs (`sitePages`). */
  pages: readonly SitePage[];
  secure: boolean;
  /** With `listen ... ssl`: the certificate and key files. */
  tls?: { certificate: string; key: string } | undefined;
}

/** An nginx string, double-quoted. nginx cannot escape `$` (a variable) in one: refused. */
function quote(value: string): string {
  if (value.includes('$')) throw new Error(`Cannot write ${value} into an nginx string: it holds a $.`);
  return `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`;
}

/**
 * The `add_header` lines for one location. nginx drops the server level's add_header lines in any
 * location that has its own, so every location repeats the whole set; `always` sends them with
 * error answers too (the Node server sends them on every response).
 */
function headerLines(secure: boolean, csp: string, cacheControl: string): string[] {
  const headers: (readonly [string, string])[] = [
    ...securityHeaders({ secure }).filter(([name]) => name !== 'Content-Security-Policy'),
    ['Content-Security-Policy', csp],
    ['Cache-Control', cacheControl],
  ];
  return headers.map(([name, value]) => `add_header ${name} ${quote(value)} always;`);
}

/** The public catalogue's names below /data/ (PUBLIC_CATALOGUE_FILE's), captured for `alias`. */
const CATALOGUE_LOCATIONS = [
  { match: '^/data/(search/index\\.json)$', like: '/data/search/index.json' },
  { match: '^/data/(search/[^/.][^/]*\\.json)$', like: '/data/search/x.json' },
  {
    match:
      '^/data/((?:manifest|threads-(?:all|text|images|recent))\\.json|pages/(?:all|text|images|topics/[^/.][^/]*)/[0-9]+\\.json)$',
    like: '/data/manifest.json',
  },
] as const;

/**
 * `/data/*` straight from the catalogue folder: the build no longer copies a catalogue of any size
 * into the site (decision 041). Only the public names match (never the export's private state, its
 * temporary or spill files); anything else under /data/ is a 404.
 */
function catalogueLocations(secure: boolean, catalogueDir: string): string[] {
  const folder = quote(`${catalogueDir.replace(/\/+$/, '')}/`).slice(0, -1);
  return [
    ...CATALOGUE_LOCATIONS.map(({ match, like }) =>
      location(`~ "${match}"`, [
        ...headerLines(secure, STRICT_CSP, catalogueCacheControl(like)),
        `alias ${folder}$1";`,
      ]),
    ),
    location('/data/', ['return 404;']),
  ];
}

function location(match: string, lines: string[]): string {
  return [`location ${match} {`, ...lines.map((line) => `    ${line}`), '}'].join('\n');
}

function proxy(upstream: string): string[] {
  return [
    `proxy_pass ${upstream};`,
    'proxy_http_version 1.1;',
    'proxy_set_header Host $http_host;',
    'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    'proxy_set_header X-Forwarded-Proto $scheme;',
    'proxy_set_header Connection "";',
    // Node answers these itself, security headers included; nginx adds none.
    'gzip_static off;',
  ];
}

/**
 * An nginx `server { ... }` block that serves a built site the way the Node server does: each page
 * at `/x` and `/x/` with its exact CSP, 404.html (status 404, its own CSP) for anything unknown,
 * the precompressed `.gz` copies (gzip_static), `/_astro/*` and search shards immutable, pages and
 * the catalogue (`/data/*`, from the catalogue folder) revalidated, the security headers on every
 * answer; `/api/`, `/thread/` (the thread pages Node fills from the database, decision 046),
 * `/social/` (the link preview pictures Node draws, decision 048) and `nodePaths` go to Node, which must then run with TRUST_PROXY_HOPS=1.
 */
export function nginxServerBlock(options: NginxSiteOptions): string {
  const { secure } = options;
  const upstream = options.apiUpstream.replace(/\/+$/, '');
  const notFound = options.pages.find((page) => page.file === NOT_FOUND_PAGE);
  const union = unionCsp(options.pages.map((page) => page.csp));
  const locations: string[] = [];
  for (const prefix of ['/api/', '/thread/', '/social/', ...(options.nodePaths ?? [])])
    locations.push(location(`^~ ${prefix}`, proxy(upstream)));
  locations.push(
    location('^~ /_astro/', [
      ...headerLines(secure, STRICT_CSP, siteCacheControl('/_astro/x.js')),
      'try_files $uri =404;',
    ]),
    ...catalogueLocations(secure, options.catalogueDir),
  );
  const seen = new Set<string>();
  for (const page of options.pages) {
    for (const urlPath of page.paths.filter((p) => !seen.has(p))) {
      seen.add(urlPath);
      locations.push(
        location(`= ${urlPath}`, [
          ...headerLines(secure, page.csp, 'no-cache'),
          `try_files /${page.file} =404;`,
        ]),
      );
    }
  }
  if (notFound) {
    // Asked for by name it is still a 404, as from Node; `internal` sends such a request to error_page.
    locations.push(
      location(`= /${NOT_FOUND_PAGE}`, ['internal;', ...headerLines(secure, notFound.csp, 'no-cache')]),
    );
  }
  locations.push(
    // Pages asked for by file name (/privacy/index.html): any page's scripts may run there.
    location('~ \\.html$', [...headerLines(secure, union, 'no-cache'), 'try_files $uri =404;']),
    location('/', [
      ...headerLines(secure, STRICT_CSP, siteCacheControl('/favicon.svg')),
      'try_files $uri =404;',
    ]),
  );
  const body = [
    `listen ${options.listen};`,
    `server_name ${options.serverName};`,
    ...(options.tls
      ? [
          `ssl_certificate ${quote(options.tls.certificate)};`,
          `ssl_certificate_key ${quote(options.tls.key)};`,
        ]
      : []),
    `root ${quote(options.root)};`,
    'charset utf-8;',
    'charset_types text/css text/plain text/xml application/xml application/json application/javascript image/svg+xml;',
    'server_tokens off;',
    'gzip_static on;',
    'gzip_vary on;',
    'etag on;',
    ...(notFound ? [`error_page 404 /${NOT_FOUND_PAGE};`] : []),
    '',
    ...locations,
  ];
  const indented = body.map((line) =>
    line
      .split('\n')
      .map((part) => (part ? `    ${part}` : part))
      .join('\n'),
  );
  return [
    '# Generated by the site build (server/publisher/build/host/nginx.ts): do not edit; it is rewritten with every build.',
    '# Include it inside the http { } block of nginx.conf (with mime.types). The Node server behind it',
    `# (${upstream}) must run with TRUST_PROXY_HOPS=1, so it reads the client address from X-Forwarded-For.`,
    'server {',
    ...indented,
    '}',
    '',
  ].join('\n');
}
