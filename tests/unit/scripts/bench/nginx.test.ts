import { expect, test } from 'vitest';
import { referenceNginxConfig } from '../../../../scripts/bench/nginx.ts';

const site = { prefix: '/tmp/bench/nginx', root: '/srv/dist', port: 4901 };

test('the reference serves the dist on loopback with one worker, sendfile, keep-alive and gzip_static', () => {
  const config = referenceNginxConfig(site);
  expect(config).toContain('worker_processes 1;');
  expect(config).toContain('listen 127.0.0.1:4901;');
  expect(config).toContain('root /srv/dist;');
  expect(config).toMatch(/^\s*sendfile on;$/m);
  expect(config).toMatch(/^\s*gzip_static on;$/m);
  expect(config).toMatch(/^\s*keepalive_timeout \d+;$/m);
  expect(config).toContain('try_files $uri $uri/ $uri.html =404;');
  // Compresses nothing itself unless asked: what it sends is what the dist holds.
  expect(config).not.toMatch(/^\s*gzip on;$/m);
});

test('everything nginx writes stays under the prefix: pid, error log, temp paths', () => {
  const config = referenceNginxConfig(site);
  expect(config).toContain('pid /tmp/bench/nginx/nginx.pid;');
  expect(config).toContain('error_log /tmp/bench/nginx/error.log');
  for (const temp of config.match(/^\s*\w+_temp_path .*$/gm) ?? [])
    expect(temp).toContain('/tmp/bench/nginx/tmp/');
  expect(config.match(/_temp_path/g)).toHaveLength(5);
  expect(config).not.toContain('daemon');
});

test('types for what a built site holds, without /etc/nginx/mime.types', () => {
  const config = referenceNginxConfig(site);
  expect(config).not.toContain('include');
  expect(config).toMatch(/text\/html html;/);
  expect(config).toMatch(/application\/javascript js mjs;/);
  expect(config).toMatch(/application\/json json;/);
});

test('extra files from another folder, and on-the-fly gzip when asked', () => {
  const config = referenceNginxConfig({
    ...site,
    extraFiles: { '/no-js.html': '/tmp/copy' },
    gzipOnTheFly: true,
  });
  expect(config).toMatch(/location = \/no-js\.html \{\s*root \/tmp\/copy;\s*\}/);
  expect(config).toMatch(/^\s*gzip on;$/m);
  expect(config).toMatch(/gzip_types [^;]*application\/javascript/);
});
