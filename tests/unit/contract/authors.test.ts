import { describe, expect, test } from 'vitest';
import { AUTHOR_TEXTS, optOutDoneText } from '../../../contract/authors.ts';
import {
  displayUsernameProblem,
  USERNAME_MESSAGES,
  RESERVED_USERNAMES,
} from '../../../contract/profile-rules.ts';
import { authorChips } from '../../../contract/review.ts';

describe('authors in control (decision 028)', () => {
  test("the review card's chips say in words what the author chose; none when they chose nothing", () => {
    expect(authorChips({})).toEqual([]);
    expect(authorChips({ author_opted_out: false, author_removed_count: 0 })).toEqual([]);
    expect(authorChips({ author_opted_out: true, author_removed_count: 1 })).toEqual([
      'Author asked never to be curated',
      'Author removed 1 post from the catalogue',
    ]);
    expect(authorChips({ author_removed_count: 3 })).toEqual(['Author removed 3 posts from the catalogue']);
  });

  test('opting out says how many waiting posts left the queue', () => {
    expect(optOutDoneText(0)).toBe(AUTHOR_TEXTS.optedOutDone);
    expect(optOutDoneText(1)).toBe(`${AUTHOR_TEXTS.optedOutDone} 1 post waiting for review left the queue.`);
    expect(optOutDoneText(4)).toBe(`${AUTHOR_TEXTS.optedOutDone} 4 posts waiting for review left the queue.`);
  });

  test("the page's path is a reserved name", () => {
    expect(RESERVED_USERNAMES).toContain('your-posts');
    expect(displayUsernameProblem('your_posts')).toBeNull();
    expect(USERNAME_MESSAGES.threadsHandle).toMatch(/another person's Threads username/);
  });
});
