import { bioProblem, chosenUsernameProblem } from '../../contract/profile-rules.ts';

/** The profile form's problems, by field; `form` is one that belongs to no field (a refusal, a failure). */
export interface ProfileErrors {
  display_username?: string;
  bio?: string;
  form?: string;
}

/** The client's check, the same rules as the server's: a message beside each field that breaks one. */
export function checkProfile(displayUsername: string, bio: string): ProfileErrors {
  const errors: ProfileErrors = {};
  const name = chosenUsernameProblem(displayUsername);
  const text = bioProblem(bio);
  if (name) errors.display_username = name;
  if (text) errors.bio = text;
  return errors;
}

/**
 * Places the server's refusal on the field it concerns: 409 is a taken name; a 400 names its field
 * first ("bio: ..."). Anything else stays with the form.
 */
export function serverProfileErrors(status: number, detail: string): ProfileErrors {
  if (status === 409) return { display_username: detail };
  for (const field of ['display_username', 'bio'] as const) {
    const prefix = `${field}: `;
    if (status === 400 && detail.startsWith(prefix)) return { [field]: detail.slice(prefix.length) };
  }
  return { form: detail };
}
