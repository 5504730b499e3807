import { useState, type FormEvent } from 'react';
import { DIGEST_NOTE_MAX } from '../../../contract/digest.ts';
import { DIGEST_DESK_TEXTS as T } from '../../../contract/digest-desk.ts';
import { ApiRequestError, detailOr } from '../../lib/api.ts';
import { saveDigestNote } from '../../stores/digest-desk.ts';

type Status =
  | { kind: 'idle' }
  | { kind: 'saving' }
  | { kind: 'saved' }
  | { kind: 'error'; text: string; published: boolean };

interface Props {
  /** The note as stored; the form is keyed by the digest, so another week starts from its own. */
  saved: string;
  /** After a 409 (published meanwhile): load the digest being prepared now. */
  onLoadNext(): void;
}

/**
 * The editor's note: a labelled textarea with its count (as the server counts: characters, NFC),
 * Save, and what came of it in a polite live region. A refused save keeps the words typed.
 */
export default function DigestNoteForm({ saved, onLoadNext }: Props) {
  const [note, setNote] = useState(saved);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const length = [...note.normalize('NFC').trim()].length;
  const over = Math.max(0, length - DIGEST_NOTE_MAX);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (status.kind === 'saving') return;
    setStatus({ kind: 'saving' });
    try {
      const draft = await saveDigestNote(note);
      setNote(draft.note);
      setStatus({ kind: 'saved' });
    } catch (error) {
      const published = error instanceof ApiRequestError && error.status === 409;
      setStatus({ kind: 'error', text: detailOr(error, T.noteFailed), published });
    }
  }

  return (
    <form className="digest-note profile-form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor="digest-note">{T.noteLabel}</label>
      <textarea
        id="digest-note"
        rows={4}
        value={note}
        onChange={(event) => {
          setNote(event.target.value);
          if (status.kind !== 'saving') setStatus({ kind: 'idle' });
        }}
        aria-invalid={over > 0 ? true : undefined}
        aria-describedby="digest-note-help digest-note-count"
      />
      <p id="digest-note-help" className="field-help">
        {T.noteHelp}
      </p>
      <p id="digest-note-count" className={over > 0 ? 'field-help field-help--over' : 'field-help'}>
        {T.noteCount(length)}
        {over > 0 && T.noteOver(over)}
      </p>
      <div className="form-actions">
        {/* Never disabled: a press while saving is ignored, and the focus stays on the button. */}
        <button type="submit" className="button" aria-disabled={status.kind === 'saving'}>
          {status.kind === 'saving' ? T.saving : T.saveNote}
        </button>
      </div>
      <div className="digest-note__status" aria-live="polite">
        {status.kind === 'saved' && <p className="profile-saved">{T.noteSaved}</p>}
        {status.kind === 'error' && <p className="form-error">{status.text}</p>}
      </div>
      {status.kind === 'error' && status.published && (
        <button type="button" className="button button--quiet" onClick={onLoadNext}>
          {T.loadNext}
        </button>
      )}
    </form>
  );
}
