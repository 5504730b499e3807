import { useEffect, useRef, useState, type FormEvent } from 'react';
import { MEMBER_TEXTS } from '../../../contract/membership.ts';
import { BIO_MAX, type OwnProfile } from '../../../contract/profile-rules.ts';
import { TEXTS } from '../../../contract/texts.ts';
import { api, ApiRequestError } from '../../lib/api.ts';
import { checkProfile, serverProfileErrors, type ProfileErrors } from '../../lib/profile-field-errors.ts';

interface Props {
  profile: OwnProfile;
  onSaved(profile: OwnProfile): void;
  onCancel(): void;
}

/** The ids a field is described by: its help, and its error when it has one. */
const describedBy = (help: string, error: string | undefined, errorId: string) =>
  error ? `${help} ${errorId}` : help;

/**
 * Edits the display username and bio. The same rules as the server, checked before sending; each
 * problem shows beside its field (aria-invalid, aria-describedby) and focus goes to the first one.
 */
export default function ProfileEditForm({ profile, onSaved, onCancel }: Props) {
  const [name, setName] = useState(profile.display_username ?? '');
  const [bio, setBio] = useState(profile.bio);
  const [errors, setErrors] = useState<ProfileErrors>({});
  const [saving, setSaving] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const bioRef = useRef<HTMLTextAreaElement>(null);
  const formErrorRef = useRef<HTMLParagraphElement>(null);
  const bioLength = [...bio.normalize('NFC')].length;
  const bioOver = bioLength > BIO_MAX;

  // Opening the form puts the focus in its first field, not back on the page.
  useEffect(() => nameRef.current?.focus(), []);

  useEffect(() => {
    if (errors.display_username) nameRef.current?.focus();
    else if (errors.bio) bioRef.current?.focus();
    else if (errors.form) formErrorRef.current?.focus();
  }, [errors]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    const local = checkProfile(name, bio);
    if (local.display_username || local.bio) return setErrors(local);
    setSaving(true);
    setErrors({});
    try {
      onSaved(
        await api<OwnProfile>('/api/user/profile', { method: 'PUT', body: { display_username: name, bio } }),
      );
    } catch (error) {
      const refused = error instanceof ApiRequestError && error.detail ? error : null;
      setErrors(
        refused
          ? serverProfileErrors(refused.status, refused.detail ?? '')
          : { form: TEXTS.profileUpdateFailed },
      );
      setSaving(false);
    }
  }

  return (
    <form className="profile-form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor="display-username">Display username</label>
      <input
        id="display-username"
        ref={nameRef}
        value={name}
        onChange={(event) => setName(event.target.value)}
        autoComplete="off"
        aria-invalid={errors.display_username ? true : undefined}
        aria-describedby={describedBy(
          'display-username-help',
          errors.display_username,
          'display-username-error',
        )}
        required
      />
      {errors.display_username && (
        <p id="display-username-error" className="field-error">
          {errors.display_username}
        </p>
      )}
      <p id="display-username-help" className="field-help">
        3 to 30 letters, numbers or underscores. Your public page will be at /{name || 'your_name'}.
      </p>
      <label htmlFor="bio">Bio</label>
      <textarea
        id="bio"
        ref={bioRef}
        rows={4}
        value={bio}
        onChange={(event) => setBio(event.target.value)}
        aria-invalid={errors.bio ? true : undefined}
        aria-describedby={describedBy('bio-help', errors.bio, 'bio-error')}
      />
      {errors.bio && (
        <p id="bio-error" className="field-error">
          {errors.bio}
        </p>
      )}
      <p id="bio-help" className={bioOver ? 'field-help field-help--over' : 'field-help'}>
        {bioLength} / {BIO_MAX}
        {bioOver && ` (${MEMBER_TEXTS.bioTooLong}: ${bioLength - BIO_MAX} over)`}
      </p>
      {errors.form && (
        <p ref={formErrorRef} className="form-error" role="alert" tabIndex={-1}>
          {errors.form}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button" disabled={saving}>
          {TEXTS.saveChanges}
        </button>
        <button type="button" className="button button--quiet" onClick={onCancel}>
          {TEXTS.cancel}
        </button>
      </div>
    </form>
  );
}
