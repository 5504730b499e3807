import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startBlankPage, type BlankPage } from '../../../../scripts/bench/blank-page.ts';
import { freePort } from '../../../../scripts/free-port.ts';

describe('the blank reference page of the Lighthouse step', () => {
  let page: BlankPage;
  beforeAll(async () => {
    page = await startBlankPage(await freePort());
  });
  afterAll(() => page.stop());

  test("serves one small HTML page without script, style or picture, with the product's headers", async () => {
    const response = await fetch(page.url);
    expect(response.status).toBe(200);
    // The opener policy is what makes Chromium open every page of ours in a new process.
    expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain('<h1>Blank reference page</h1>');
    expect(html).not.toMatch(/<script|<style|<img|<link/);
  });

  test('answers 404 anywhere else', async () => {
    expect((await fetch(new URL('/favicon.ico', page.url))).status).toBe(404);
  });
});
