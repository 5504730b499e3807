import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { PendingUser } from '../../../../contract/profile-rules.ts';
import type { CurationRunSummary, ReviewThread } from '../../../../contract/review.ts';
import { TEXTS } from '../../../../contract/texts.ts';
import {
  $lastCurationRun,
  $ownThreads,
  $pendingUsers,
  decidePendingUser,
  loadedItems,
  loadOwnThreads,
  loadPendingUsers,
  runCuration,
} from '../../../../src/stores/dashboard.ts';

function answer(status: number, body: unknown): Promise<Response> {
  return Promise.resolve(new Response(JSON.stringify(body), { status }));
}

/** A fetch that answers by path; a path it does not know fails the test. */
function routes(table: Record<string, () => Promise<Response>>) {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const path = new URL(url, 'http://site.test').pathname;
      const handler = table[path];
      if (!handler) throw new Error(`unexpected call to ${path}`);
      return handler();
    }),
  );
}

const thread = { id: 't1' } as ReviewThread;
const user = { user_id: 'u1', threads_username: 'maren' } as PendingUser;
const run = { status: 'succeeded', counts: {} } as CurationRunSummary;

describe('dashboard store', () => {
  beforeEach(() => {
    for (const store of [$ownThreads, $pendingUsers, $lastCurationRun]) store.set({ status: 'loading' });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  test.each([
    {
      name: 'the list',
      status: 200,
      body: { threads: [thread] },
      state: { status: 'ready', data: [thread] },
    },
    { name: 'no field: an empty list', status: 200, body: {}, state: { status: 'ready', data: [] } },
    { name: '401: an empty list', status: 401, body: {}, state: { status: 'ready', data: [] } },
    { name: '403: an empty list', status: 403, body: {}, state: { status: 'ready', data: [] } },
    {
      name: "500: the server's detail",
      status: 500,
      body: { detail: 'Database down.' },
      state: { status: 'error', message: 'Database down.' },
    },
  ])('a list answer gives $name', async ({ status, body, state }) => {
    routes({ '/api/user/threads': () => answer(status, body) });
    await loadOwnThreads();
    expect($ownThreads.get()).toEqual(state);
  });

  test('no answer at all says the server could not be reached', async () => {
    routes({ '/api/user/threads': () => Promise.reject(new TypeError('Failed to fetch')) });
    await loadOwnThreads();
    expect($ownThreads.get()).toEqual({
      status: 'error',
      message: 'The server could not be reached. Check your connection.',
    });
  });

  test("a reload shows 'Loading...'; a quiet one keeps the shown items until the answer", async () => {
    $ownThreads.set({ status: 'ready', data: [thread] });
    let release: (value: Response) => void = () => {};
    routes({ '/api/user/threads': () => new Promise<Response>((resolve) => (release = resolve)) });
    const quiet = loadOwnThreads({ quiet: true });
    expect($ownThreads.get()).toEqual({ status: 'ready', data: [thread] });
    release(new Response(JSON.stringify({ threads: [] }), { status: 200 }));
    await quiet;
    expect($ownThreads.get()).toEqual({ status: 'ready', data: [] });

    const loud = loadOwnThreads();
    expect($ownThreads.get()).toEqual({ status: 'loading' });
    release(new Response(JSON.stringify({ threads: [thread] }), { status: 200 }));
    await loud;
    expect(loadedItems($ownThreads.get())).toEqual([thread]);
  });

  test('an older answer that arrives last is dropped', async () => {
    const releases: ((value: Response) => void)[] = [];
    routes({ '/api/user/threads': () => new Promise<Response>((resolve) => releases.push(resolve)) });
    const first = loadOwnThreads();
    const second = loadOwnThreads();
    releases[1]?.(new Response(JSON.stringify({ threads: [] }), { status: 200 }));
    await second;
    releases[0]?.(new Response(JSON.stringify({ threads: [thread] }), { status: 200 }));
    await first;
    expect($ownThreads.get()).toEqual({ status: 'ready', data: [] });
  });

  test('pending users that failed to load are logged and read as none (spec)', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    routes({ '/api/admin/pending-users': () => answer(500, {}) });
    await loadPendingUsers();
    expect(logged).toHaveBeenCalledWith(TEXTS.pendingUsersFailed);
    expect(loadedItems($pendingUsers.get())).toEqual([]);
  });

  test('a decided request leaves the list; a failed decision throws and keeps it', async () => {
    $pendingUsers.set({ status: 'ready', data: [user] });
    routes({ '/api/admin/approve-user': () => answer(409, { detail: 'Already decided.' }) });
    await expect(decidePendingUser('u1', 'approve')).rejects.toThrow('Already decided.');
    expect(loadedItems($pendingUsers.get())).toEqual([user]);

    routes({ '/api/admin/approve-user': () => answer(200, { success: true }) });
    await decidePendingUser('u1', 'reject');
    expect(loadedItems($pendingUsers.get())).toEqual([]);
    expect(JSON.parse(String(vi.mocked(fetch).mock.calls[0]?.[1]?.body))).toEqual({
      user_id: 'u1',
      action: 'reject',
    });
  });

  test('a curation run shows at once and quietly reloads the queue and My Threads', async () => {
    $ownThreads.set({ status: 'ready', data: [] });
    routes({
      '/api/admin/refresh': () => answer(200, { run }),
      '/api/threads/pending-review': () => new Promise<Response>(() => {}),
      '/api/user/threads': () => new Promise<Response>(() => {}),
    });
    expect(await runCuration()).toEqual(run);
    expect($lastCurationRun.get()).toEqual({ status: 'ready', data: run });
    // My Threads keeps its cards while the new ones load.
    expect($ownThreads.get()).toEqual({ status: 'ready', data: [] });
    const paths = vi
      .mocked(fetch)
      .mock.calls.map(([url]) => new URL(String(url), 'http://site.test').pathname);
    expect(paths).toEqual(['/api/admin/refresh', '/api/threads/pending-review', '/api/user/threads']);
  });
});
