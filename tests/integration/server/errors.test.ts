import { once } from 'node:events';
import { connect } from 'node:net';
import { describe, expect, test } from 'vitest';
import { buildTestApp } from '../helpers/app.ts';
import { openTestDatabase } from '../helpers/database.ts';

function expectOurShape(headers: Headers | Record<string, unknown>, body: unknown) {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]);
  expect(get('x-content-type-options')).toBe('nosniff');
  expect(String(get('content-security-policy'))).toContain("frame-ancestors 'none'");
  expect(body).toEqual({ detail: expect.any(String) });
}

/** Sends raw bytes and returns the raw HTTP response (for requests Node's parser rejects). */
async function rawRequest(
  port: number,
  request: string,
): Promise<{ status: number; headers: string; body: string }> {
  const socket = connect(port, '127.0.0.1');
  let response = '';
  socket.on('data', (chunk: Buffer) => (response += chunk.toString()));
  socket.write(request);
  await once(socket, 'close');
  const [head = '', body = ''] = response.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body };
}

describe('request bodies', () => {
  test('only JSON is accepted: text/plain and form bodies get 415, oversized 413, broken JSON 400', async () => {
    const app = await buildTestApp();
    let handled = 0;
    app.post('/api/test-echo', { config: { access: 'public' } }, async (request) => {
      handled++;
      return { received: request.body };
    });
    try {
      const send = (contentType: string, payload: string) =>
        app.inject({
          method: 'POST',
          url: '/api/test-echo',
          headers: { 'content-type': contentType, 'sec-fetch-site': 'same-origin' },
          payload,
        });

      const plain = await send('text/plain', '{"a":1}');
      expect(plain.statusCode).toBe(415);
      expectOurShape(plain.headers, plain.json());
      expect((await send('application/x-www-form-urlencoded', 'a=1')).statusCode).toBe(415);

      const big = await send('application/json', JSON.stringify({ text: 'x'.repeat(17 * 1024) }));
      expect(big.statusCode).toBe(413);
      expect(big.json()).toEqual({ detail: 'The request body is too large.' });

      const broken = await send('application/json', '{"a": ');
      expect(broken.statusCode).toBe(400);
      expect(broken.json()).toEqual({ detail: 'The request body is not valid JSON.' });

      const poisoned = await send('application/json', '{"__proto__": {"admin": true}}');
      expect(poisoned.statusCode).toBe(400);

      expect(handled).toBe(0);
      expect((await send('application/json', '{"a":1}')).json()).toEqual({ received: { a: 1 } });
    } finally {
      await app.close();
    }
  });
});

test(
  'a route whose database is unreachable answers 503 with Retry-After, not 500',
  { tags: ['engine'] },
  async () => {
    const database = await openTestDatabase();
    const app = await buildTestApp({}, { database });
    app.get('/api/test-db', { config: { access: 'public' } }, async () => database.db.execute('select 1'));
    try {
      await database.close();
      const res = await app.inject({ url: '/api/test-db' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expectOurShape(res.headers, res.json());
    } finally {
      await app.close();
    }
  },
);

test('a malformed address answers 400 without echoing the address or its query', async () => {
  const app = await buildTestApp();
  try {
    const res = await app.inject({ url: '/%E0%A4%A?code=SECRET-CODE' });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('SECRET-CODE');
    expectOurShape(res.headers, res.json());
    const missing = await app.inject({ url: '/api/missing?code=SECRET-CODE' });
    expect(missing.body).not.toContain('SECRET-CODE');
  } finally {
    await app.close();
  }
});

describe('on a real socket', () => {
  test('requests Node itself rejects (oversized headers, garbage) still get our headers and {detail}', async () => {
    const app = await buildTestApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    try {
      const huge = await rawRequest(
        port,
        `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
      );
      expect(huge.status).toBe(431);
      expect(huge.headers).toContain('x-content-type-options: nosniff');
      expect(huge.headers).toContain("frame-ancestors 'none'");
      expect(JSON.parse(huge.body)).toEqual({ detail: 'The request headers are too large.' });

      const garbage = await rawRequest(port, 'THIS IS NOT HTTP\r\n\r\n');
      expect(garbage.status).toBe(400);
      expect(garbage.headers).toContain('x-content-type-options: nosniff');
      expect(JSON.parse(garbage.body)).toEqual({ detail: 'The request is malformed.' });
    } finally {
      await app.close();
    }
  });

  test('while the server shuts down, new requests get 503 with Retry-After in our shape', async () => {
    const app = await buildTestApp();
    let closingStarted: () => void = () => {};
    const started = new Promise<void>((resolve) => (closingStarted = resolve));
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    // Holds the shutdown open at its first step, while the server still accepts connections.
    app.addHook('preClose', async () => {
      closingStarted();
      await held;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    const closing = app.close();
    await started;
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expectOurShape(res.headers, await res.json());
      // Built pages, answered before Fastify's hooks while running, step aside too.
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(503);
      expect(await page.json()).toEqual({
        detail: 'The server is restarting. Please try again in a moment.',
      });
    } finally {
      release();
      await closing;
    }
  });
});
