import { expect, test } from 'vitest';
import { workerUserLines, wrapServerBlock } from '../../nginx/nginx-runner.ts';

test('as root the workers stay root (nobody cannot read a checkout in a 0700 folder); as anyone else no user line', () => {
  expect(workerUserLines(0)).toEqual(['user root;']);
  expect(workerUserLines(1000)).toEqual([]);
});

test('the wrapping config includes the server block and keeps every path under its prefix', () => {
  const config = wrapServerBlock('/srv/run', '/srv/dist.nginx.conf');
  expect(config).toContain('include /srv/dist.nginx.conf;');
  expect(config).toContain('pid /srv/run/nginx.pid;');
  expect(config).toContain('proxy_temp_path /srv/run/temp/proxy;');
  expect(config.includes('user root;')).toBe(process.getuid?.() === 0);
});
