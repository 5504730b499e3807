import { describe, expect, test } from 'vitest';
import { PUBLIC_CATALOGUE_FILE } from '../../../../../../server/publisher/export/catalogue-files.ts';
import { listenFor } from '../../../../../../server/publisher/build/host/host-files.ts';
import {
  nginxServerBlock,
  type NginxSiteOptions,
} from '../../../../../../server/publisher/build/host/nginx.ts';

const options: NginxSiteOptions = {
  listen: '8080',
  serverName: 'curated.example',
  root: '/srv/site',
  catalogueDir: '/srv/data/catalogue',
  apiUpstream: 'http://127.0.0.1:4321/',
  nodePaths: ['/simulated-threads/'],
  pages: [
    { file: '404.html', paths: [], csp: "script-src 'self' 'sha256-nf'" },
    { file: 'index.html', paths: ['/'], csp: "script-src 'self' 'sha256-home'" },
    {
      file: 'privacy/index.html',
      paths: ['/privacy', '/privacy/'],
      csp: "script-src 'self' 'sha256-privacy'",
    },
  ],
  secure: false,
};

/** The body of `location <match> { ... }`, one directive a line. */
function locationBody(conf: string, match: string): string[] {
  const start = conf.indexOf(`location ${match} {\n`);
  if (start < 0) throw new Error(`no location ${match}`);
  const body = conf.slice(start, conf.indexOf('\n    }', start));
  return body
    .split('\n')
    .slice(1)
    .map((line) => line.trim());
}

/** The regex locations that serve the catalogue, in order. */
function catalogueLocations(conf: string): string[] {
  return [...conf.matchAll(/location (~ "\^\/data\/[^\n]*") \{/g)].map((match) => match[1] ?? '');
}

describe('nginxServerBlock', () => {
  const conf = nginxServerBlock(options);

  test('serves the root with gzip_static, 404.html for anything unknown, and says Node needs TRUST_PROXY_HOPS=1', () => {
    expect(conf).toContain('    listen 8080;');
    expect(conf).toContain('    server_name curated.example;');
    expect(conf).toContain('    root "/srv/site";');
    expect(conf).toContain('    gzip_static on;');
    expect(conf).toContain('    error_page 404 /404.html;');
    expect(conf).toContain('TRUST_PROXY_HOPS=1');
    expect(conf.match(/\{/g)?.length).toBe(conf.match(/\}/g)?.length);
  });

  test('proxies /api/, the thread pages, the preview pictures and the extra Node paths with the forwarded headers, adding no headers of its own', () => {
    // /thread/{id} is filled and /social/... drawn by Node from the database (decisions 046, 048):
    // no file of the site answers them.
    for (const prefix of ['/api/', '/thread/', '/social/', '/simulated-threads/']) {
      const body = locationBody(conf, `^~ ${prefix}`);
      expect(body).toContain('proxy_pass http://127.0.0.1:4321;');
      expect(body).toContain('proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;');
      expect(body).toContain('proxy_set_header X-Forwarded-Proto $scheme;');
      expect(body).toContain('proxy_set_header Host $http_host;');
      expect(body.some((line) => line.startsWith('add_header'))).toBe(false);
    }
  });

  test('each page path has its exact CSP and the security headers (a location with add_header drops the server ones)', () => {
    for (const [match, csp, file] of [
      ['= /', 'sha256-home', '/index.html'],
      ['= /privacy', 'sha256-privacy', '/privacy/index.html'],
      ['= /privacy/', 'sha256-privacy', '/privacy/index.html'],
    ] as const) {
      const body = locationBody(conf, match);
      expect(body).toContain(`add_header Content-Security-Policy "script-src 'self' '${csp}'" always;`);
      expect(body).toContain('add_header X-Content-Type-Options "nosniff" always;');
      expect(body).toContain('add_header Cache-Control "no-cache" always;');
      expect(body).toContain(`try_files ${file} =404;`);
    }
    const notFound = locationBody(conf, '= /404.html');
    expect(notFound).toContain('internal;');
    expect(notFound).toContain(`add_header Content-Security-Policy "script-src 'self' 'sha256-nf'" always;`);
  });

  test('cache rules mirror the Node server: assets and shards immutable, the index and the catalogue revalidated', () => {
    const immutable = 'add_header Cache-Control "public, max-age=31536000, immutable" always;';
    expect(locationBody(conf, '^~ /_astro/')).toContain(immutable);
    const [index, shards, files] = catalogueLocations(conf);
    expect(locationBody(conf, shards ?? '')).toContain(immutable);
    expect(locationBody(conf, index ?? '')).toContain('add_header Cache-Control "no-cache" always;');
    expect(locationBody(conf, files ?? '')).toContain('add_header Cache-Control "no-cache" always;');
    expect(locationBody(conf, '/')).toContain('add_header Cache-Control "public, max-age=3600" always;');
  });

  test("/data/* comes from the catalogue folder, by the export's public names only", () => {
    const matches = catalogueLocations(conf);
    expect(matches).toHaveLength(3);
    for (const match of matches)
      expect(locationBody(conf, match)).toContain('alias "/srv/data/catalogue/$1";');
    // nginx's PCRE and JavaScript read these patterns alike.
    const patterns = matches.map((match) => new RegExp(match.slice(3, -1)));
    const served = (name: string) => patterns.some((pattern) => pattern.test(`/data/${name}`));
    for (const name of [
      'manifest.json',
      'threads-all.json',
      'threads-recent.json',
      'pages/all/1.json',
      'pages/images/12.json',
      'pages/topics/uidesign/3.json',
      'search/index.json',
      'search/ab-1.json',
    ]) {
      expect(served(name), name).toBe(true);
      expect(PUBLIC_CATALOGUE_FILE.test(name), name).toBe(true);
    }
    for (const name of [
      '.export-state.json',
      'pages/all/.1.json.tmp',
      'pages/topics/.hidden/1.json',
      'search/.spill-3.json',
      'threads-all.json.part',
      'notes.txt',
      'pages/all/x.json',
    ])
      expect(served(name), name).toBe(false);
    // Any other /data/ address is a 404, never a file of the site folder.
    expect(locationBody(conf, '/data/')).toEqual(['return 404;']);
  });

  test('https adds HSTS and the certificate lines; a $ in a value is refused', () => {
    const tls = nginxServerBlock({
      ...options,
      secure: true,
      listen: '443 ssl http2',
      tls: { certificate: '/c.pem', key: '/k.key' },
    });
    expect(tls).toContain(
      'add_header Strict-Transport-Security "max-age=31536000; includeSubDomains" always;',
    );
    expect(tls).toContain('ssl_certificate "/c.pem";');
    expect(conf).not.toContain('Strict-Transport-Security');
    expect(() => nginxServerBlock({ ...options, root: '/srv/$site' })).toThrow(/\$/);
    expect(() => nginxServerBlock({ ...options, catalogueDir: '/srv/$data' })).toThrow(/\$/);
  });
});

describe('listenFor', () => {
  test("the public URL's port, or 80/443 when it is the Node server's own address", () => {
    expect(listenFor(new URL('http://127.0.0.1:8080'), 'http://127.0.0.1:4321')).toBe('8080');
    expect(listenFor(new URL('http://127.0.0.1:4321'), 'http://127.0.0.1:4321')).toBe('80');
    expect(listenFor(new URL('https://curated.example'), 'http://127.0.0.1:4321')).toBe('443 ssl http2');
  });
});
