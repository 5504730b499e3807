/**
 * Characters that hide or reorder what a text says, or that PostgreSQL cannot store: C0 controls
 * other than tab and line breaks, DEL, the text-direction overrides and isolates (U+202A-U+202E,
 * U+2066-U+2069; U+202E shows a text reversed) and lone surrogates (not text at all).
 */
const HIDDEN_CHARACTER =
  // eslint-disable-next-line no-control-regex -- finding control characters is this pattern's purpose
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * And with the code-point flag: the C1 controls (U+0080-U+009F, NEL among them), the invisible direction
 * marks (U+200E, U+200F, U+061C) and Unicode's noncharacters (U+FFFE, U+FFFF and the rest: never text,
 * and the preview pictures' XML refuses them).
 */
const HIDDEN_CODE_POINT = /[\u0080-\u009F\u061C\u200E\u200F\p{Noncharacter_Code_Point}]/u;

/**
 * Whether `text` holds a control, text-direction, noncharacter or lone surrogate character (tab and
 * line breaks pass). The one rule for every text we store.
 */
export function hasHiddenCharacters(text: string): boolean {
  return HIDDEN_CHARACTER.test(text) || HIDDEN_CODE_POINT.test(text);
}
