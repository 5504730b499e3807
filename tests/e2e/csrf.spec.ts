import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { TEST_SITE } from '../site-under-test.ts';
import { expect, signInAs, test } from './fixtures.ts';

// Security row 5 in a real browser: a page on another site, opened by a signed-in member, tries
// the ways a page can send a state-changing request to us. None of them may change anything.
const TARGET = `${TEST_SITE.publicUrl}/api/user/request-invite`;
const PROFILE = `${TEST_SITE.publicUrl}/api/user/profile`;

/** The attacker's page: credentialed fetches, then a form POST (a top-level navigation to us). */
const ATTACKER_PAGE = `<!doctype html><html><body>
<form id="form" method="post" action="${TARGET}" enctype="text/plain">
  <input name='{"x":"' value='"}'>
</form>
<script>
  const attempts = [
    ['${TARGET}', { method: 'POST', body: '{}', headers: { 'content-type': 'text/plain' }, mode: 'no-cors' }],
    ['${TARGET}', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }],
    ['${PROFILE}', { method: 'PUT', body: '{"display_username":"pwned_name","bio":""}',
      headers: { 'content-type': 'application/json' } }],
  ];
  Promise.all(attempts.map(([url, init]) =>
    fetch(url, { ...init, credentials: 'include' })
      .then((r) => 'answered ' + r.type + ' ' + r.status, (e) => 'blocked ' + e.name)
  )).then((results) => {
    sessionStorage.setItem('results', JSON.stringify(results));
    document.getElementById('form').submit();
  });
</script></body></html>`;

let attacker: Server;
let attackerOrigin: string;

test.beforeAll(async () => {
  attacker = createServer((request, response) => {
    // /results is a quiet page on the attacker's origin, where the test reads what the attack saw.
    const body = request.url === '/results' ? '<!doctype html><title>results</title>' : ATTACKER_PAGE;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  attacker.listen(0, '127.0.0.1');
  await once(attacker, 'listening');
  // "localhost" is another site than "127.0.0.1": the browser treats this page as cross-site.
  attackerOrigin = `http://localhost:${(attacker.address() as { port: number }).port}`;
});
test.afterAll(() => attacker.close());

test('a cross-site page cannot ask for an invite or edit a profile in the member’s name', async ({
  page,
  pageProblems,
}) => {
  // The browser reports the refused cross-origin calls and the refused form POST.
  pageProblems.allow(/CORS|Failed to load resource|net::ERR_FAILED/);
  const member = `csrf_${Date.now().toString(36).slice(-5)}`;
  await signInAs(page, member);
  expect((await page.request.get('/api/user/profile')).status()).toBe(404);

  await page.goto(attackerOrigin);
  // The form POST lands on our API, which refuses it with a readable detail before anything runs.
  await page.waitForURL(TARGET);
  expect(JSON.parse((await page.locator('body').textContent()) ?? '')).toEqual({
    detail: expect.stringMatching(/\w/),
  });
  await page.goto(`${attackerOrigin}/results`);
  const results = JSON.parse((await page.evaluate(() => sessionStorage.getItem('results'))) ?? '[]');
  // Credentialed JSON calls die in the CORS preflight. The no-cors one is sent and refused by us, and
  // our Cross-Origin-Resource-Policy keeps even its opaque answer from the page.
  expect(results).toEqual(['blocked TypeError', 'blocked TypeError', 'blocked TypeError']);

  // Nothing changed: still no invite request, and the member is still signed in.
  await page.goto('/request-invite');
  await expect(page.getByRole('button', { name: 'Request Invite' })).toBeVisible();
  expect((await page.request.get('/api/user/profile')).status()).toBe(404);
});
