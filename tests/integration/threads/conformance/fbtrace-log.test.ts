import { afterAll, beforeAll, expect, test } from 'vitest';
import { api, REDIRECT_URI, startApp } from '../../auth/helpers.ts';
import { loadFixtures, startFixtureServer, type Exchange } from './fixture-server.ts';

// Section 7: Meta asks for the fbtrace_id of a failed call. A sign-in Threads refuses is logged
// with it, so Meta support can find the request.
let server: Awaited<ReturnType<typeof startFixtureServer>>;
beforeAll(async () => {
  server = await startFixtureServer();
});
afterAll(() => server.close());

test('a sign-in Threads refuses is logged with its fbtrace_id', async () => {
  const exchange = loadFixtures('oauth.json').codeExchange as Exchange;
  const received = server.serve({
    ...exchange,
    response: {
      status: 400,
      json: {
        error: {
          message: 'The verification code has expired (fixture wording).',
          type: 'OAuthException',
          code: 100,
          fbtrace_id: 'AFixtureTraceSignIn',
        },
      },
    },
  });
  let log = '';
  const { app, base } = await startApp(
    {
      LOG_LEVEL: 'info',
      THREADS_APP_ID: '1029384756102938',
      THREADS_APP_SECRET: 'f1xture-app-secret-0000',
      THREADS_GRAPH_BASE_URL: server.base,
    },
    { logStream: { write: (line: string) => void (log += line) } },
  );
  try {
    const response = await api(base, '/api/auth/callback', {
      method: 'POST',
      body: { code: 'AQDfixtureAuthCode_01', redirect_uri: REDIRECT_URI },
    });
    expect(response.status).toBe(400);
    expect(received.map((request) => request.path)).toEqual(['/oauth/access_token']);
    const line = log.split('\n').find((entry) => entry.includes('sign-in failed at Threads'));
    expect(JSON.parse(line ?? '{}')).toMatchObject({ fbtraceId: 'AFixtureTraceSignIn', level: 40 });
  } finally {
    await app.close();
  }
});
