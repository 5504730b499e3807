/**
 * Characters that hide or reorder what a text says, or that PostgreSQL cannot store: C0 controls
 * other than tab and line breaks, DEL, the text-direction overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069; U+202E shows a text reversed) and lone surrogates (not text at all).
 */
const HIDDEN_CHARACTER =
  // eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` holds a control, text-direction or lone surrogate character (tab and line breaks pass). */
export function hasHiddenCharacters(text: string): boolean {
  return HIDDEN_CHARACTER.test(text);
}
