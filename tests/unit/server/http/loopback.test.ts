import { expect, test } from 'vitest';
import { localOrigin } from '../../../../server/http/loopback.ts';

test.each([
  ['0.0.0.0', 'http://127.0.0.1:4321'],
  ['', 'http://127.0.0.1:4321'],
  ['::', 'http://[::1]:4321'],
  ['127.0.0.1', 'http://127.0.0.1:4321'],
  ['::1', 'http://[::1]:4321'],
  ['10.0.0.5', 'http://10.0.0.5:4321'],
  ['localhost', 'http://localhost:4321'],
])('a server listening on %j is reached at %s', (host, origin) => {
  expect(localOrigin(host, 4321)).toBe(origin);
});
