import { describe, expect, test } from 'vitest';
import { USERNAME_MESSAGES } from '../../../../contract/profile-rules.ts';
import { checkProfile, serverProfileErrors } from '../../../../src/lib/profile-field-errors.ts';

describe('checkProfile', () => {
  test('one message per field that breaks a rule, none when both pass', () => {
    expect(checkProfile('ab', 'x'.repeat(301))).toEqual({
      display_username: USERNAME_MESSAGES.length,
      bio: 'Bio must be at most 300 characters.',
    });
    expect(checkProfile('bad.name', 'fine')).toEqual({ display_username: USERNAME_MESSAGES.characters });
    expect(checkProfile('good_name', 'x'.repeat(300))).toEqual({});
  });
});

describe('serverProfileErrors', () => {
  test('a taken name goes to the name field', () => {
    expect(serverProfileErrors(409, USERNAME_MESSAGES.taken)).toEqual({
      display_username: USERNAME_MESSAGES.taken,
    });
  });

  test("a 400 goes to the field it names, without the field's name", () => {
    expect(serverProfileErrors(400, 'bio: Bio must be at most 300 characters.')).toEqual({
      bio: 'Bio must be at most 300 characters.',
    });
    expect(serverProfileErrors(400, `display_username: ${USERNAME_MESSAGES.reserved}`)).toEqual({
      display_username: USERNAME_MESSAGES.reserved,
    });
  });

  test('anything else stays with the form', () => {
    expect(serverProfileErrors(403, 'Only approved profiles can be edited.')).toEqual({
      form: 'Only approved profiles can be edited.',
    });
    expect(serverProfileErrors(400, 'Unknown field: x.')).toEqual({ form: 'Unknown field: x.' });
  });
});
