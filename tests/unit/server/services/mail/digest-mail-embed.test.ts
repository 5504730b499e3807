import { expect, test } from 'vitest';
import { digestMail, type DigestMailItem } from '../../../../../server/services/mail/compose.ts';

// Decision 070: a digest item shown to the public through Threads' embed is named by its permalink
// in the mail, with its links and none of our copy of the post.
const SECRET = 'Kerning is a conversation between letters';
const SITE = new URL('https://curated.example');
const item = (id: string, overrides: Partial<DigestMailItem> = {}): DigestMailItem => ({
  id,
  username: 'ada.l',
  authorName: 'Ada Lovelace',
  text: SECRET,
  permalink: 'https://www.threads.com/@ada.l/post/C0de1',
  topicTag: 'Typography',
  ...overrides,
});
const ID1 = '11111111-1111-4111-8111-111111111111';
const ID2 = '22222222-2222-4222-8222-222222222222';

function mail(items: DigestMailItem[]) {
  return digestMail({ id: '2026-48', note: '' }, items, {
    site: SITE,
    unsubscribe: 'https://api.curated.example/unsubscribe?t=x',
  });
}

test('an embed item is listed as whose post it is, with its page and its permalink, and no excerpt', () => {
  const { text, html } = mail([item(ID1, { display: 'embed' })]);
  for (const part of [text, html]) {
    expect(part).not.toContain('Kerning');
    expect(part).not.toContain('Ada Lovelace');
    expect(part).toContain('Post by @ada.l on Threads');
  }
  expect(text).toContain(
    [
      '1. Post by @ada.l on Threads',
      `   https://curated.example/thread/${ID1}`,
      '   https://www.threads.com/@ada.l/post/C0de1',
    ].join('\n'),
  );
  expect(html).toContain(
    '<li style="margin-bottom:1rem"><strong>Post by @ada.l on Threads</strong><br>' +
      `<a href="https://curated.example/thread/${ID1}">Read it here</a> · ` +
      '<a href="https://www.threads.com/@ada.l/post/C0de1">on Threads</a></li>',
  );
});

test('a /t/ permalink names no one; a card item beside it keeps its byline and excerpt', () => {
  const { text, html } = mail([
    item(ID1, { display: 'embed', permalink: 'https://www.threads.com/t/C0de1' }),
    item(ID2, { display: 'card', text: 'A consenting author keeps the excerpt' }),
  ]);
  expect(text).toContain('1. Post on Threads\n');
  expect(text).toContain(
    [
      '2. Ada Lovelace (@ada.l)',
      '   A consenting author keeps the excerpt',
      `   https://curated.example/thread/${ID2}`,
    ].join('\n'),
  );
  expect(html).toContain('<strong>Post on Threads</strong>');
  expect(html).toContain('A consenting author keeps the excerpt');
  expect(html).not.toContain('Kerning');
});
