import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { parseSocialImagePath, socialImagePath } from '../../../../../contract/social-image.ts';
import { socialCardSvg, wrapLines } from '../../../../../server/services/social-images/social-card.ts';

describe('wrapLines', () => {
  test('breaks at words within the width and keeps short text whole', () => {
    expect(wrapLines('one two three four', 9, 3)).toEqual(['one two', 'three', 'four']);
    expect(wrapLines('  short   text ', 40, 2)).toEqual(['short text']);
  });

  test('cuts what does not fit with an ellipsis on the last line', () => {
    const lines = wrapLines('alpha beta gamma delta epsilon zeta eta theta', 11, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1]?.endsWith('…')).toBe(true);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(11);
  });

  test('splits a word longer than a line, and counts CJK characters as two letters wide', () => {
    expect(wrapLines('https://example.com/a/very/long/path', 12, 4)).toEqual([
      'https://exam',
      'ple.com/a/ve',
      'ry/long/path',
    ]);
    expect(wrapLines('デザインシステム', 8, 2)).toEqual(['デザイン', 'システム']);
  });
});

describe('socialCardSvg', () => {
  test('draws member text escaped, without control or bidi characters', () => {
    const svg = socialCardSvg({
      kind: 'Thread',
      headline: 'Grids <script>alert(1)</script> & \u202Eevil\u0000',
      headlineStyle: 'quote',
      body: '',
      footer: '@ada · #Typography',
    });
    expect(svg).toContain('Grids &lt;script&gt;alert(1)&lt;/script&gt; &amp;');
    expect(svg.includes('\u202E') || svg.includes('\u0000')).toBe(false);
    expect(svg).toContain('>Thread</text>');
    expect(svg).toContain('@ada · #Typography');
    expect(svg).toMatch(/^<svg [^>]*width="1200" height="630"/);
  });

  test('a bio stored with a noncharacter or a lone surrogate still draws (XML refuses both)', async () => {
    const svg = socialCardSvg({
      kind: 'Member',
      headline: 'Ada \uFFFE',
      headlineStyle: 'name',
      body: 'Grids\uFFFF and \uD800type',
      footer: '@ada',
    });
    expect(/[\uFFFE\uFFFF\uD800]/.test(svg)).toBe(false);
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    expect((await sharp(png).metadata()).width).toBe(1200);
  });
});

describe('social image paths', () => {
  test('round trip for every kind; anything else names no picture', () => {
    expect(socialImagePath('topic', 'ux design')).toBe('/social/topic/ux%20design.png');
    expect(parseSocialImagePath('/social/thread/abc.png')).toEqual({ kind: 'thread', key: 'abc' });
    expect(parseSocialImagePath('/social/profile/ada.png')).toEqual({ kind: 'profile', key: 'ada' });
    for (const path of [
      '/social/other/a.png',
      '/social/thread/.png',
      '/social/thread/a/b.png',
      '/social/topic/a.jpg',
      '/social.png',
      // Issue 34: a NUL reached the profile lookup and answered 500.
      '/social/profile/\u0000.png',
      '/social/profile/a\u202Eb.png',
    ])
      expect(parseSocialImagePath(path), path).toBeNull();
  });
});
