import { expect, test } from 'vitest';
import { redactSecrets } from '../../../../server/threads/gateway.ts';

test.each([
  ['Invalid verification code format.', 'Invalid verification code format.'],
  ['Invalid code AQBx9-ab_cdEFgh12345678', 'Invalid code [redacted]'],
  ['Error validating access token THAAxyz123456789012|abc', 'Error validating access token [redacted]'],
  ['(#10) Permission needed: threads_keyword_search', '(#10) Permission needed: threads_keyword_search'],
  [`secret ${'abcdefghij'.repeat(4)}`, 'secret [redacted]'],
  [
    'Session has expired on Tuesday, 02-Jun-26 14:00:00 PDT.',
    'Session has expired on Tuesday, 02-Jun-26 14:00:00 PDT.',
  ],
])('%s', (input, expected) => {
  expect(redactSecrets(input)).toBe(expected);
});

test('a long message is capped', () => {
  expect(redactSecrets('word '.repeat(100))).toHaveLength(303);
});
