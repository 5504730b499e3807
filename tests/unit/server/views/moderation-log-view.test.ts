import { expect, test } from 'vitest';
import { MODERATION_EXCERPT_MAX } from '../../../../contract/moderation-log.ts';
import { excerptOf } from '../../../../server/views/moderation-log-view.ts';

test('an excerpt is the whole text when short, whitespace collapsed; none for no text', () => {
  expect(excerptOf('  Grids\n\nand   type ')).toBe('Grids and type');
  expect(excerptOf(' \n ')).toBeNull();
});

test('a long text is cut at a word, within the limit, whole characters, with an ellipsis', () => {
  const long = 'Spacing scales matter. '.repeat(20);
  const excerpt = excerptOf(long) ?? '';
  expect([...excerpt].length).toBeLessThanOrEqual(MODERATION_EXCERPT_MAX);
  expect(excerpt).toMatch(/\w…$/);
  expect(long.startsWith(excerpt.slice(0, -1))).toBe(true);
  const emoji = excerptOf('🎨'.repeat(400)) ?? '';
  expect([...emoji].length).toBe(MODERATION_EXCERPT_MAX);
  expect(emoji.endsWith('🎨…')).toBe(true);
});
