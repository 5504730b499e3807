import { describe, expect, test } from 'vitest';
import {
  bioProblem,
  chosenUsernameProblem,
  displayUsernameProblem,
  ProfileUpdateSchema,
  USERNAME_MESSAGES,
} from '../../../contract/profile.ts';

describe('display username rule', () => {
  test.each([
    ['maren_makes', null],
    ['abc', null],
    ['a'.repeat(30), null],
    ['ab', USERNAME_MESSAGES.length],
    ['a'.repeat(31), USERNAME_MESSAGES.length],
    ['', USERNAME_MESSAGES.length],
    ['maren.makes', USERNAME_MESSAGES.characters],
    ['with space', USERNAME_MESSAGES.characters],
    ['ａｄｍｉｎ', USERNAME_MESSAGES.characters], // fullwidth letters
    ['аdmin', USERNAME_MESSAGES.characters], // Cyrillic а
    ['ad\u200dmin', USERNAME_MESSAGES.characters], // zero-width joiner
    ['Dashboard', USERNAME_MESSAGES.reserved],
    ['PRIVACY', USERNAME_MESSAGES.reserved],
    ['_astro', USERNAME_MESSAGES.reserved],
  ])('%s → %s', (name, problem) => {
    expect(displayUsernameProblem(name)).toBe(problem);
  });
});

// Lookalikes of reserved names (decision 065).
describe('a chosen name may not look like a reserved one', () => {
  test.each(['adm1n', 'ADM1N', 'Adm_In', 'sign_in', 'Sett1ngs', 'r00t', 'L0GIN', 'nu11', 'dig_est'])(
    '%s is refused as a lookalike',
    (name) => {
      expect(chosenUsernameProblem(name)).toBe(USERNAME_MESSAGES.reservedLookalike);
      // ...but an address of that name is still looked up: a name held from before keeps its page.
      expect(displayUsernameProblem(name)).toBeNull();
    },
  );

  test('the exact reserved name keeps its own message; the other rules come first', () => {
    expect(chosenUsernameProblem('Admin')).toBe(USERNAME_MESSAGES.reserved);
    expect(chosenUsernameProblem('adm.1n')).toBe(USERNAME_MESSAGES.characters);
    expect(chosenUsernameProblem('a_1')).toBe(null);
  });

  test.each(['admins', 'ori_ux', 'maren_makes', 'lena', 'bob_the_builder'])('%s is free', (name) => {
    expect(chosenUsernameProblem(name)).toBeNull();
  });

  test('the lookalike messages do not name the name they resemble', () => {
    for (const message of [
      USERNAME_MESSAGES.reservedLookalike,
      USERNAME_MESSAGES.takenLookalike,
      USERNAME_MESSAGES.threadsHandleLookalike,
    ])
      expect(message).toMatch(/^This username looks too much like .+\. Please choose another\.$/);
  });
});

describe('bio rule', () => {
  test('at most 300 characters, counted as code points (an emoji is one)', () => {
    expect(bioProblem('😀'.repeat(300))).toBeNull();
    expect(bioProblem('😀'.repeat(301))).toBe('Bio must be at most 300 characters.');
    expect(bioProblem('line one\nline two')).toBeNull();
  });

  // U+FFFE was stored, then broke the profile's preview picture (its XML refuses noncharacters): 500.
  test.each(['\u202Eevil', 'a\u2066b', 'bell\u0007', 'tab\there', 'a\uFFFEb', 'next\u0085line', 'a\u200Fb'])(
    'refuses control and direction characters: %j',
    (bio) => {
      expect(bioProblem(bio)).toBe('Bio cannot contain control or text-direction characters.');
    },
  );

  test('the update schema normalises to NFC and trims; unknown fields are refused', () => {
    const parsed = ProfileUpdateSchema.parse({ display_username: 'maren', bio: '  Cafe\u0301  ' });
    expect(parsed.bio).toBe('Café');
    expect(
      ProfileUpdateSchema.safeParse({ display_username: 'maren', bio: '', status: 'approved' }).success,
    ).toBe(false);
  });
});
