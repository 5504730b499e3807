import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../../server/config.ts';
import { logStreamFor } from '../../../../server/http/log-format.ts';

describe('LOG_FORMAT', () => {
  test('JSON unless pretty is asked for; anything else is refused', () => {
    expect(loadConfig({}).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'colour' })).toThrow('LOG_FORMAT: must be json or pretty');
  });

  test('json keeps pino on stdout; pretty turns a JSON line into one readable line', async () => {
    expect(await logStreamFor('json')).toBeUndefined();
    let written = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const stream = await logStreamFor('pretty', sink);
    expect(stream).toBeDefined();
    stream?.write(
      `${JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 2, 3, 4, 5), pid: 1, hostname: 'h', msg: 'Server listening', reqId: 'req-1' })}\n`,
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Server listening \{"reqId":"req-1"\}\n$/);
    expect(written).not.toContain('hostname');
  });
});

describe('DEV_PAGES_URL (npm run dev)', () => {
  test('with SERVE_SITE=false it names the dev server the thread template is read from', () => {
    const config = loadConfig({ SERVE_SITE: 'false', DEV_PAGES_URL: 'http://127.0.0.1:4321' });
    expect(config.devPagesUrl?.href).toBe('http://127.0.0.1:4321/');
    expect(loadConfig({}).devPagesUrl).toBeUndefined();
  });

  test('refused beside a served site and in production', () => {
    const message =
      'DEV_PAGES_URL is for npm run dev: it needs SERVE_SITE=false and is refused in production.';
    expect(() => loadConfig({ DEV_PAGES_URL: 'http://127.0.0.1:4321' })).toThrow(message);
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        THREADS_MODE: 'simulated',
        SESSION_SECRET: 'x'.repeat(32),
        TOKEN_KEY: 'a'.repeat(64),
        SERVE_SITE: 'false',
        DEV_PAGES_URL: 'http://127.0.0.1:4321',
      }),
    ).toThrow(message);
  });
});
