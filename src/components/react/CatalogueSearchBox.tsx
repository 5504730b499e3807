import { useId } from 'react';

interface Props {
  value: string;
  onChange(value: string): void;
  /** Until the island runs, the box could not search: it stays disabled. */
  disabled: boolean;
}

/** The catalogue's search field: searches as the visitor types; Escape (or the clear button) ends the search. */
export default function CatalogueSearchBox({ value, onChange, disabled }: Props) {
  const id = useId();
  return (
    <form className="catalogue-search" role="search" onSubmit={(event) => event.preventDefault()}>
      <label className="catalogue-search__label" htmlFor={id}>
        Search threads
      </label>
      <input
        id={id}
        className="catalogue-search__input"
        type="search"
        name="q"
        value={value}
        placeholder="Typography, focus rings, @maren.makes..."
        autoComplete="off"
        spellCheck={false}
        enterKeyHint="search"
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
      />
    </form>
  );
}
