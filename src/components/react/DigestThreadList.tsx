import type { Ref, RefObject } from 'react';
import type { DigestDraft } from '../../../contract/digest.ts';
import { DIGEST_DESK_TEXTS as T } from '../../../contract/digest-desk.ts';

type Item = DigestDraft['threads'][number];

interface Props {
  /** Names the list: its heading's id is `${id}-heading`. */
  id: string;
  heading: string;
  /** Under the heading, when the list needs explaining. */
  help?: string;
  empty: string;
  items: readonly Item[];
  /** The rows' one action: "Leave out" or "Put back". */
  action: string;
  onAction(item: Item): void;
  /** Threads whose change is on its way: their button ignores a second press. */
  busy: ReadonlySet<string>;
  /** The heading takes the focus when the row that had it left and no button can take it. */
  headingRef: Ref<HTMLHeadingElement>;
  /** Each row's button by `${id}:${thread id}`, so the focus can follow a row into this list. */
  buttons: RefObject<Map<string, HTMLButtonElement>>;
}

/** One of the Digest tab's two lists: each thread's author, first words, gems, link and one action. */
export default function DigestThreadList(props: Props) {
  const { id, heading, help, empty, items, action, onAction, busy, headingRef, buttons } = props;
  return (
    <section className="digest-list" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} ref={headingRef} tabIndex={-1}>
        {heading} <span className="digest-list__count">({items.length})</span>
      </h3>
      {help && <p className="field-help">{help}</p>}
      {items.length === 0 ? (
        <p className="digest-list__empty">{empty}</p>
      ) : (
        <ol className="digest-list__items">
          {items.map((item) => (
            <li key={item.id} className="digest-row" data-thread-id={item.id}>
              <p className="digest-row__who">
                <strong>{item.author}</strong>
                <span className="digest-row__gems tabular">{T.gems(item.gems)}</span>
              </p>
              <p className="digest-row__excerpt">{item.excerpt || T.noText}</p>
              <div className="digest-row__actions">
                <a href={item.permalink} rel="noopener noreferrer">
                  {T.viewOnThreads}
                  <span className="visually-hidden">{T.postBy(item.author)}</span>
                </a>
                <button
                  type="button"
                  className="button button--quiet"
                  ref={(button) => {
                    if (button) buttons.current.set(`${id}:${item.id}`, button);
                    else buttons.current.delete(`${id}:${item.id}`);
                  }}
                  // Not disabled while it moves (that would drop the focus): a second press is ignored.
                  aria-disabled={busy.has(item.id)}
                  onClick={() => onAction(item)}
                >
                  {action}
                  <span className="visually-hidden">{T.threadBy(item.author)}</span>
                </button>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
