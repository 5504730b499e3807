import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  parseThreadUrl,
  THREAD_URL_MAX_LENGTH,
  THREAD_URL_MESSAGES,
  type ThreadLink,
} from '../../../contract/thread-url.ts';

// Fixed seed: a failure is reproducible.
const SEED = 20260314;
const CANONICAL = /^https:\/\/www\.threads\.com\/(@[a-z0-9._]{1,30}\/post|t)\/[A-Za-z0-9_-]{5,40}$/;
const { required, tooLong, notThreads, notHttps } = THREAD_URL_MESSAGES;

const post = (user: string, code: string) => `https://www.threads.com/@${user}/post/${code}`;
const short = (code: string) => `https://www.threads.com/t/${code}`;

describe('accepted links', () => {
  test.each([
    // The four hosts, both forms.
    ['https://www.threads.com/@zuck/post/C8abc12XYZ', post('zuck', 'C8abc12XYZ')],
    ['https://threads.com/@zuck/post/C8abc12XYZ', post('zuck', 'C8abc12XYZ')],
    ['https://www.threads.net/@zuck/post/C8abc12XYZ', post('zuck', 'C8abc12XYZ')],
    ['https://threads.net/@zuck/post/C8abc12XYZ', post('zuck', 'C8abc12XYZ')],
    ['https://www.threads.com/t/C8abc12XYZ', short('C8abc12XYZ')],
    ['https://threads.com/t/C8abc12XYZ', short('C8abc12XYZ')],
    ['https://www.threads.net/t/C8abc12XYZ', short('C8abc12XYZ')],
    ['https://threads.net/t/C8abc12XYZ', short('C8abc12XYZ')],
    // Trailing slash, query and fragment are dropped.
    ['https://www.threads.net/@a/post/abc12/', post('a', 'abc12')],
    ['https://threads.com/t/abc12/', short('abc12')],
    ['https://www.threads.com/@zuck/post/C8abc12XYZ?xmt=AQGzN3&slof=1', post('zuck', 'C8abc12XYZ')],
    ['https://www.threads.com/@zuck/post/C8abc12XYZ#foo', post('zuck', 'C8abc12XYZ')],
    ['https://www.threads.com/@zuck/post/C8abc12XYZ/?xmt=1#top', post('zuck', 'C8abc12XYZ')],
    ['https://threads.com/@a/post/abc12?', post('a', 'abc12')],
    ['https://threads.com/@a/post/abc12#', post('a', 'abc12')],
    ['https://threads.com/t/abc12?igshid=x', short('abc12')],
    // Query and fragment may hold anything; they never move the host.
    ['https://threads.com/@a/post/abc12?next=https://evil.com/@b/post/zzzzz', post('a', 'abc12')],
    ['https://threads.com/@a/post/abc12#@evil.com', post('a', 'abc12')],
    ['https://threads.com/@a/post/abc12?q=héllo', post('a', 'abc12')],
    // Case: host and scheme are case-insensitive, usernames are stored lower-case, shortcodes keep case.
    ['https://THREADS.com/@a/post/abc12', post('a', 'abc12')],
    ['https://WwW.ThReAdS.NeT/@a/post/abc12', post('a', 'abc12')],
    ['HTTPS://threads.com/@a/post/abc12', post('a', 'abc12')],
    ['https://www.threads.com/@Zuck.Berg_2/post/AbC-_12', post('zuck.berg_2', 'AbC-_12')],
    // Surrounding whitespace is trimmed.
    ['  https://threads.com/@a/post/abc12 \n', post('a', 'abc12')],
    ['\thttps://threads.com/t/abc12\r\n', short('abc12')],
    // Length limits of username and shortcode.
    [`https://threads.com/@${'u'.repeat(30)}/post/abc12`, post('u'.repeat(30), 'abc12')],
    [`https://threads.com/@a/post/${'Z'.repeat(40)}`, post('a', 'Z'.repeat(40))],
    ['https://threads.com/@a/post/ab-_9', post('a', 'ab-_9')],
    ['https://threads.com/@._/post/abc12', post('._', 'abc12')],
    // Percent-encoded segments that decode to allowed characters are normalised.
    ['https://threads.com/@a/post/abc%31%32', post('a', 'abc12')],
    ['https://threads.com/%40a/post/abc12', post('a', 'abc12')],
    ['https://threads.com/@A%2Eb/p%6Fst/abc12', post('a.b', 'abc12')],
  ])('%j → %s', (input, url) => {
    const result = parseThreadUrl(input);
    expect(result).toMatchObject({ ok: true, link: { url } });
  });

  test('the link carries username and shortcode', () => {
    expect(parseThreadUrl('https://threads.net/@Some.User/post/DA1b2C3d4E')).toEqual({
      ok: true,
      link: { url: post('some.user', 'DA1b2C3d4E'), username: 'some.user', shortcode: 'DA1b2C3d4E' },
    });
    expect(parseThreadUrl('https://threads.net/t/DA1b2C3d4E')).toEqual({
      ok: true,
      link: { url: short('DA1b2C3d4E'), username: null, shortcode: 'DA1b2C3d4E' },
    });
  });
});

describe('refused links', () => {
  const valid = 'https://threads.com/@a/post/abc12';
  test.each([
    // Blank.
    ['', required],
    ['   ', required],
    ['\t\r\n', required],
    // Scheme.
    ['http://threads.com/@a/post/abc12', notHttps],
    ['HTTP://www.threads.com/@a/post/abc12', notHttps],
    ['javascript:alert(1)//https://threads.com/@a/post/abc12', notHttps],
    ['data:text/html,<script>alert(1)</script>', notHttps],
    ['ftp://threads.com/@a/post/abc12', notHttps],
    ['wss://threads.com/@a/post/abc12', notHttps],
    ['threads.com/@a/post/abc12', notThreads],
    ['//threads.com/@a/post/abc12', notThreads],
    ['https:threads.com/@a/post/abc12', notThreads],
    ['https:/threads.com/@a/post/abc12', notThreads],
    ['https:///threads.com/@a/post/abc12', notThreads],
    ['java\tscript:alert(1)', notThreads],
    // Userinfo and ports, including the ones URL() would silently drop.
    ['https://threads.net@evil.com/@a/post/abc12', notThreads],
    ['https://user:pw@threads.com/@a/post/abc12', notThreads],
    ['https://@threads.com/@a/post/abc12', notThreads],
    ['https://threads.com@threads.com/@a/post/abc12', notThreads],
    ['https://threads.com:8443/@a/post/abc12', notThreads],
    ['https://threads.com:443/@a/post/abc12', notThreads],
    ['https://threads.com:/@a/post/abc12', notThreads],
    // Backslashes, which URL() would turn into '/'.
    ['https://threads.com\\@evil.com/@a/post/abc12', notThreads],
    ['https://threads.com\\@a\\post\\abc12', notThreads],
    ['https://threads.com/@a/post/abc12\\', notThreads],
    // Other and lookalike hosts.
    ['https://threads.com%2f@evil.com/@a/post/abc12', notThreads],
    ['https://threads.com%2f@evil', notThreads],
    ['https://threads%2Ecom/@a/post/abc12', notThreads],
    ['https://threads.com.evil.com/@a/post/abc12', notThreads],
    ['https://evilthreads.com/@a/post/abc12', notThreads],
    ['https://xn--thrads-xua.com/@a/post/abc12', notThreads],
    ['https://ｔｈｒｅａｄｓ.com/@a/post/abc12', notThreads],
    ['https://threads.com./@a/post/abc12', notThreads],
    ['https://m.threads.com/@a/post/abc12', notThreads],
    ['https://www.instagram.com/p/abc12', notThreads],
    ['https://evil.com/https://threads.com/@a/post/abc12', notThreads],
    ['https://evil.com/?https://threads.com/@a/post/abc12', notThreads],
    // Whitespace and control characters inside, which URL() would strip or encode.
    ['https://thread\ts.com/@a/post/abc12', notThreads],
    ['https://threads.com/@a/post/abc\n12', notThreads],
    ['https://threads.com/@a/post/abc12 x', notThreads],
    ['https://threads.com/@a/post/abc12?q=a b', notThreads],
    ['https://threads.com/@a/post/abc\u000012', notThreads],
    ['https://threads.com/@a/post/abc\u200b12', notThreads],
    ['https://threads.com/@a/post/abc12\u202e', notThreads],
    ['https://threads.com/@a/post/abc\u00a012', notThreads],
    ['https://threads.com/@a/post/abc12\ud800', notThreads],
    // Other paths.
    ['https://threads.com', notThreads],
    ['https://threads.com/', notThreads],
    ['https://threads.com?x=/@a/post/abc12', notThreads],
    ['https://threads.com/@a', notThreads],
    ['https://threads.com/@a/', notThreads],
    ['https://threads.com/@a/post', notThreads],
    ['https://threads.com/@a/post/abc12/media', notThreads],
    ['https://threads.com/search?q=abc12', notThreads],
    ['https://threads.com/a/post/abc12', notThreads],
    ['https://threads.com/@a/POST/abc12', notThreads],
    ['https://threads.com/T/abc12', notThreads],
    ['https://threads.com/t/', notThreads],
    ['https://threads.com/t/abc12/extra', notThreads],
    ['https://threads.com/x/@a/post/abc12', notThreads],
    ['https://threads.com/@a//post/abc12', notThreads],
    ['https://threads.com//@a/post/abc12', notThreads],
    ['https://threads.com/@a/post/abc12//', notThreads],
    ['https://threads.com/@a/post/x/../abc12', notThreads],
    ['https://threads.com/@a/post/%2e%2e/abc12', notThreads],
    // Percent-encoding that does not decode to allowed characters.
    ['https://threads.com/@a/post/abc%2F12', notThreads],
    ['https://threads.com/@a/post/abc%zz12', notThreads],
    ['https://threads.com/@a/post/abc%2512', notThreads],
    ['https://threads.com/@a/post/abc12%', notThreads],
    ['https://threads.com/@a%2Fpost/abc12', notThreads],
    // Invalid usernames and shortcodes.
    ['https://threads.com/@/post/abc12', notThreads],
    [`https://threads.com/@${'u'.repeat(31)}/post/abc12`, notThreads],
    ['https://threads.com/@a-b/post/abc12', notThreads],
    ['https://threads.com/@a@b/post/abc12', notThreads],
    ['https://threads.com/@é/post/abc12', notThreads],
    ['https://threads.com/@a/post/abc1', notThreads],
    [`https://threads.com/@a/post/${'Z'.repeat(41)}`, notThreads],
    ['https://threads.com/@a/post/abc.12', notThreads],
    ['https://threads.com/@a/post/abc12;x', notThreads],
    ['https://threads.com/t/abc', notThreads],
    // Length.
    [`${valid}?${'x'.repeat(THREAD_URL_MAX_LENGTH)}`, tooLong],
  ])('%j → %s', (input, problem) => {
    expect(parseThreadUrl(input)).toEqual({ ok: false, problem });
  });

  test('the length limit counts the trimmed link', () => {
    const exact = `${valid}?${'x'.repeat(THREAD_URL_MAX_LENGTH - valid.length - 1)}`;
    expect(exact).toHaveLength(THREAD_URL_MAX_LENGTH);
    expect(parseThreadUrl(`  ${exact}  `)).toMatchObject({ ok: true, link: { url: post('a', 'abc12') } });
    expect(parseThreadUrl(`${exact}x`)).toEqual({ ok: false, problem: tooLong });
  });
});

const USERNAME_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._'];
const SHORTCODE_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'];
const HOSTS = ['threads.com', 'www.threads.com', 'threads.net', 'www.threads.net'];

const usernameArb = fc.string({ unit: fc.constantFrom(...USERNAME_CHARS), minLength: 1, maxLength: 30 });
const shortcodeArb = fc.string({ unit: fc.constantFrom(...SHORTCODE_CHARS), minLength: 5, maxLength: 40 });
const hostArb = fc.mixedCase(fc.constantFrom(...HOSTS));
const tailArb = fc.string({ unit: fc.constantFrom(...'aZ09=&%-._~:/?#@!$+'), maxLength: 30 });

/** A valid link in any accepted spelling, with the link it must normalise to. */
const validLinkArb = fc
  .record({
    scheme: fc.mixedCase(fc.constant('https')),
    host: hostArb,
    username: fc.option(usernameArb, { nil: null }),
    shortcode: shortcodeArb,
    slash: fc.boolean(),
    query: fc.option(tailArb, { nil: null }),
    fragment: fc.option(tailArb, { nil: null }),
  })
  .map(({ scheme, host, username, shortcode, slash, query, fragment }) => {
    const path = username === null ? `/t/${shortcode}` : `/@${username}/post/${shortcode}`;
    const input =
      `${scheme}://${host}${path}${slash ? '/' : ''}` +
      (query === null ? '' : `?${query}`) +
      (fragment === null ? '' : `#${fragment}`);
    const lower = username?.toLowerCase() ?? null;
    const expected: ThreadLink = {
      url: lower === null ? short(shortcode) : post(lower, shortcode),
      username: lower,
      shortcode,
    };
    return { input, host, expected };
  });

describe('properties', () => {
  test('every valid spelling normalises to the canonical link, and the canonical link to itself', () => {
    fc.assert(
      fc.property(validLinkArb, ({ input, expected }) => {
        const result = parseThreadUrl(input);
        expect(result).toEqual({ ok: true, link: expected });
        expect(parseThreadUrl(expected.url)).toEqual({ ok: true, link: expected });
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  test('arbitrary text never throws, and anything accepted is canonical', () => {
    const messages: string[] = Object.values(THREAD_URL_MESSAGES);
    const textArb = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      fc
        .tuple(
          fc.constantFrom(
            'https://',
            'https://threads.com',
            'https://www.threads.com/@',
            'https://threads.net/t/',
          ),
          fc.string({ unit: fc.oneof(fc.constantFrom(...SHORTCODE_CHARS, ...'/@%.:\\?# '), fc.string()) }),
        )
        .map(([prefix, rest]) => prefix + rest),
    );
    fc.assert(
      fc.property(textArb, (text) => {
        const result = parseThreadUrl(text);
        if (result.ok) {
          expect(result.link.url).toMatch(CANONICAL);
          expect(parseThreadUrl(result.link.url)).toEqual(result);
        } else {
          expect(messages).toContain(result.problem);
        }
      }),
      { seed: SEED, numRuns: 2000 },
    );
  });

  test('a dangerous character inserted into the host never leads to another host', () => {
    const mutationArb = validLinkArb.chain((link) =>
      fc.record({
        link: fc.constant(link),
        at: fc.integer({ min: 0, max: link.host.length }),
        char: fc.constantFrom('\\', '@', ' ', '\t', ':', '%'),
      }),
    );
    fc.assert(
      fc.property(mutationArb, ({ link, at, char }) => {
        const hostStart = 'https://'.length;
        const input = link.input.slice(0, hostStart + at) + char + link.input.slice(hostStart + at);
        const result = parseThreadUrl(input);
        if (result.ok) {
          expect(new URL(result.link.url).hostname).toBe('www.threads.com');
          expect(result.link.shortcode).toBe(link.expected.shortcode);
        }
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });

  test('a dangerous character inserted anywhere never leads to another host', () => {
    const mutationArb = validLinkArb.chain((link) =>
      fc.record({
        input: fc.constant(link.input),
        at: fc.integer({ min: 0, max: link.input.length }),
        char: fc.constantFrom('\\', '@', ' ', '\t', '\n', ':', '%', '/', '.', '#', '?'),
      }),
    );
    fc.assert(
      fc.property(mutationArb, ({ input, at, char }) => {
        const result = parseThreadUrl(input.slice(0, at) + char + input.slice(at));
        if (result.ok) expect(result.link.url).toMatch(CANONICAL);
      }),
      { seed: SEED, numRuns: 1000 },
    );
  });
});
