import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { hasHiddenCharacters } from '../../../contract/hidden-characters.ts';
import {
  REJECTION_REASON_MAX,
  REJECTION_REASON_MESSAGES,
  REJECTION_REASON_PRESETS,
} from '../../../contract/rejection-reasons.ts';
import { REVIEW_QUEUE_TEXTS as T } from '../../../contract/review-queue.ts';

interface Props {
  /** "Reject" or "Reject 3 threads". */
  confirmLabel: string;
  onConfirm(reason: string | undefined): void;
  onCancel(): void;
}

const OTHER = 'other';
const NONE = 'none';

/**
 * Why a thread is rejected: a preset, a reason of one's own, or none. Opens with the first preset
 * chosen and focused; Enter confirms, Escape cancels (decision 013).
 */
export default function RejectReasonForm({ confirmLabel, onConfirm, onCancel }: Props) {
  const [choice, setChoice] = useState<string>(REJECTION_REASON_PRESETS[0]);
  const [other, setOther] = useState('');
  const first = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const name = useId();
  const otherId = useId();

  useEffect(() => {
    first.current?.focus({ preventScroll: true });
    // The whole form in view, clear of the Undo bar and the decisions' alert at the window's foot
    // (its scroll-margin, review.css): focus alone would only bring the first choice into view.
    form.current?.scrollIntoView({ block: 'nearest' });
  }, []);

  const reason = choice === NONE ? undefined : choice === OTHER ? other.trim() || undefined : choice;
  // Only a written reason is checked, and only while it is the one chosen.
  const problem =
    choice !== OTHER
      ? null
      : [...other.trim()].length > REJECTION_REASON_MAX
        ? REJECTION_REASON_MESSAGES.tooLong
        : hasHiddenCharacters(other)
          ? REJECTION_REASON_MESSAGES.hidden
          : null;
  const problemId = useId();
  const noteId = useId();

  // On every field of the form: Enter confirms, Escape cancels.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (!problem) onConfirm(reason);
    }
  };

  return (
    <form
      ref={form}
      className="reject-reason"
      onSubmit={(event) => {
        event.preventDefault();
        if (!problem) onConfirm(reason);
      }}
    >
      <fieldset aria-describedby={noteId}>
        <legend>{T.reasonLegend}</legend>
        <p id={noteId} className="reject-reason__note">
          {T.reasonPublished}
        </p>
        {REJECTION_REASON_PRESETS.map((preset, index) => (
          <label key={preset} className="reject-reason__option">
            <input
              ref={index === 0 ? first : undefined}
              type="radio"
              onKeyDown={onKeyDown}
              name={name}
              value={preset}
              checked={choice === preset}
              onChange={() => setChoice(preset)}
            />
            {preset}
          </label>
        ))}
        <label className="reject-reason__option">
          <input
            type="radio"
            onKeyDown={onKeyDown}
            name={name}
            value={OTHER}
            checked={choice === OTHER}
            onChange={() => setChoice(OTHER)}
          />
          {T.otherReason}
        </label>
        <label className="visually-hidden" htmlFor={otherId}>
          {T.ownReason}
        </label>
        <input
          id={otherId}
          className="reject-reason__other"
          type="text"
          onKeyDown={onKeyDown}
          value={other}
          maxLength={REJECTION_REASON_MAX * 2}
          aria-invalid={problem !== null}
          aria-describedby={problem ? problemId : undefined}
          onFocus={() => setChoice(OTHER)}
          onChange={(event) => {
            setOther(event.target.value);
            setChoice(OTHER);
          }}
        />
        {problem && (
          <p id={problemId} className="field-error">
            {problem}
          </p>
        )}
        <label className="reject-reason__option">
          <input
            type="radio"
            onKeyDown={onKeyDown}
            name={name}
            value={NONE}
            checked={choice === NONE}
            onChange={() => setChoice(NONE)}
          />
          {T.noReason}
        </label>
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="button" disabled={problem !== null}>
          {confirmLabel}
        </button>
        <button type="button" className="button button--quiet" onClick={onCancel}>
          {T.cancel}
        </button>
      </div>
    </form>
  );
}
