import type { Page } from '@playwright/test';
import { expect, signedInPage, signInAs, type NewPage } from './fixtures.ts';

// Members' states for the browser tests: sign-ins in each invite state, through the real API.

/**
 * Calls our API from inside the page, so the request is same-origin and carries the session cookie
 * (GET without a body, POST with one, unless `method` says otherwise).
 */
export async function callApi(
  page: Page,
  path: string,
  body?: unknown,
  method: string = body === undefined ? 'GET' : 'POST',
): Promise<{ status: number; json: unknown }> {
  return page.evaluate(
    async ({ path, body, method }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, json: (await response.json()) as unknown };
    },
    { path, body, method },
  );
}

/** Has the admin (in a browser of its own) approve or decline `username`'s waiting invite request. */
export async function decideInvite(newPage: NewPage, username: string, approve: boolean): Promise<void> {
  const admin = await signedInPage(newPage, 'admin');
  const pending = (await callApi(admin, '/api/admin/pending-users')).json as {
    users: { user_id: string; threads_username: string }[];
  };
  const user = pending.users.find((item) => item.threads_username === username);
  expect(user, `${username} waits for a decision`).toBeDefined();
  const decision = { user_id: user?.user_id, ...(approve ? {} : { action: 'reject' }) };
  expect((await callApi(admin, '/api/admin/approve-user', decision)).status).toBe(200);
  await admin.close();
}

/** Signs `page` in as `username` and asks for an invite: the 'pending' state. */
export async function signInPending(page: Page, username: string): Promise<void> {
  await signInAs(page, username);
  expect((await callApi(page, '/api/user/request-invite', {})).status).toBe(200);
}

/** Signs `page` in as `username`, an approved member. */
export async function signInApproved(page: Page, newPage: NewPage, username: string): Promise<void> {
  await signInPending(page, username);
  await decideInvite(newPage, username, true);
}

/** Every /api path `page` asks for from now on, in order. */
export function recordApiCalls(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/')) paths.push(pathname);
  });
  return paths;
}

/** Calls only an admin may make: the admin API and the review queue. */
export const isAdminCall = (path: string) =>
  path.startsWith('/api/admin/') || path.startsWith('/api/threads/pending-review');
