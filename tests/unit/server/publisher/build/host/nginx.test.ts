import { describe, expect, test } from 'vitest';
import { listenFor } from '../../../../../../server/publisher/build/host/host-files.ts';
import {
  nginxServerBlock,
  type NginxSiteOptions,
} from '../../../../../../server/publisher/build/host/nginx.ts';

const options: NginxSiteOptions = {
  listen: '8080',
  serverName: 'curated.example',
  root: '/srv/site',
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

  test('proxies /api/ and the extra Node paths with the forwarded headers, adding no headers of its own', () => {
    for (const prefix of ['/api/', '/simulated-threads/']) {
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
    expect(locationBody(conf, '^~ /data/search/')).toContain(immutable);
    expect(locationBody(conf, '= /data/search/index.json')).toContain(
      'add_header Cache-Control "no-cache" always;',
    );
    expect(locationBody(conf, '^~ /data/')).toContain('add_header Cache-Control "no-cache" always;');
    expect(locationBody(conf, '/')).toContain('add_header Cache-Control "public, max-age=3600" always;');
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
  });
});

describe('listenFor', () => {
  test("the public URL's port, or 80/443 when it is the Node server's own address", () => {
    expect(listenFor(new URL('http://127.0.0.1:8080'), 'http://127.0.0.1:4321')).toBe('8080');
    expect(listenFor(new URL('http://127.0.0.1:4321'), 'http://127.0.0.1:4321')).toBe('80');
    expect(listenFor(new URL('https://curated.example'), 'http://127.0.0.1:4321')).toBe('443 ssl http2');
  });
});
