import { useEffect, useId, useRef } from 'react';
import { TEXTS } from '../../../contract/texts.ts';

interface Props {
  value: string;
  onChange(value: string): void;
  /** Whether the island runs: until then (and without JavaScript) the form is submitted as it is. */
  hydrated: boolean;
}

/**
 * The catalogue's search field: searches as the visitor types; Escape (or the clear button) ends the
 * search. Never disabled: before the island runs, Enter submits the GET form to `/?q=...`, where the
 * island searches as soon as it is idle; without JavaScript a note says what works instead.
 */
export default function CatalogueSearchBox({ value, onChange, hydrated }: Props) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const started = useRef(false);
  // Uncontrolled (defaultValue): hydration would reset a controlled box to the pre-rendered empty
  // value and lose what was typed before the island ran. The box is synced to `value` here instead.
  useEffect(() => {
    const box = input.current;
    if (!box || !hydrated) return;
    if (!started.current) {
      started.current = true;
      // What the browser put in the box before the island ran (words typed, a value it restored on
      // reload) bypassed React's change tracking: assigned again through the element, React knows
      // what the box holds, so clearing it later still reads as a change (it did not, measured).
      const shown = box.value;
      box.value = shown;
      // Words typed before the island ran are the visitor's: the search takes them over.
      if (shown !== '' && shown !== value) onChange(shown);
      else if (shown !== value) box.value = value;
      return;
    }
    if (box.value !== value) box.value = value;
    // onChange is the parent's state setter: stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated, value]);
  return (
    <form
      className="catalogue-search"
      role="search"
      method="get"
      action="/"
      onSubmit={(event) => {
        if (hydrated) event.preventDefault();
      }}
    >
      <label className="catalogue-search__label" htmlFor={id}>
        Search threads
      </label>
      <input
        ref={input}
        id={id}
        className="catalogue-search__input"
        type="search"
        name="q"
        defaultValue={value}
        placeholder="Typography, focus rings, @maren.makes..."
        autoComplete="off"
        spellCheck={false}
        enterKeyHint="search"
        onChange={(event) => onChange(event.target.value)}
      />
      <noscript>
        <p className="catalogue-search__note">{TEXTS.searchNeedsJavaScript}</p>
      </noscript>
    </form>
  );
}
