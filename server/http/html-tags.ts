/**
 * A small HTML tokenizer for the pages we build: it finds real elements the way a browser does,
 * honouring quoted attribute values, comments and the raw text of `<script>` and `<style>`. A
 * regular expression over the page cannot: a member's bio inside `content="..."` may read
 * `<script>`, and must never count as one (or swallow the real one after it).
 */

/** One attribute of a start tag; `value` is null for a bare name, as written (entities undecoded). */
export interface HtmlAttribute {
  name: string;
  value: string | null;
  /** Where the value's text starts and ends in the page (the quotes excluded); -1 for a bare name. */
  valueStart: number;
  valueEnd: number;
}

/** A start tag, and for `<script>` / `<style>` the raw text up to its end tag. */
export interface HtmlStartTag {
  name: string;
  attributes: HtmlAttribute[];
  /** The raw text of a script or style element; null for any other element. */
  text: string | null;
  /** Where the start tag begins (its `<`) and ends (just past its `>`) in the page. */
  start: number;
  end: number;
}

// HTML's own whitespace (tab, line feed, form feed, carriage return, space): not JavaScript's \s,
// which also takes U+00A0 and others a browser reads as part of a name.
const TAG_NAME = /[A-Za-z][^\t\n\f\r />]*/y;
const ATTRIBUTE_NAME = /[^\t\n\f\r "'>/=][^\t\n\f\r "'>/=]*/y;
const SPACE = /[\t\n\f\r /]*/y;
const BLANK = /[\t\n\f\r ]*/y;
const UNQUOTED_VALUE = /[^\t\n\f\r >]*/y;

function matchAt(pattern: RegExp, html: string, at: number): string | null {
  pattern.lastIndex = at;
  return pattern.exec(html)?.[0] ?? null;
}

/** Reads the attributes from `at` to the tag's `>`; returns them and the index just past `>`. */
function readAttributes(html: string, at: number): { attributes: HtmlAttribute[]; end: number } {
  const attributes: HtmlAttribute[] = [];
  let i = at;
  for (;;) {
    i += matchAt(SPACE, html, i)?.length ?? 0;
    if (i >= html.length) return { attributes, end: html.length };
    if (html[i] === '>') return { attributes, end: i + 1 };
    const name = matchAt(ATTRIBUTE_NAME, html, i);
    if (!name) {
      i += 1; // a stray quote or '=': skipped, as a browser does
      continue;
    }
    i += name.length;
    const afterName = i + (matchAt(BLANK, html, i)?.length ?? 0);
    if (html[afterName] !== '=') {
      attributes.push({ name: name.toLowerCase(), value: null, valueStart: -1, valueEnd: -1 });
      continue;
    }
    i = afterName + 1;
    i += matchAt(BLANK, html, i)?.length ?? 0;
    const quote = html[i];
    if (quote === '"' || quote === "'") {
      const close = html.indexOf(quote, i + 1);
      const valueEnd = close === -1 ? html.length : close;
      attributes.push({
        name: name.toLowerCase(),
        value: html.slice(i + 1, valueEnd),
        valueStart: i + 1,
        valueEnd,
      });
      i = close === -1 ? html.length : close + 1;
    } else {
      const value = matchAt(UNQUOTED_VALUE, html, i) ?? '';
      attributes.push({ name: name.toLowerCase(), value, valueStart: i, valueEnd: i + value.length });
      i += value.length;
    }
  }
}

/** Every start tag of `html` in order, with the raw text of scripts and styles. */
export function* startTags(html: string): Generator<HtmlStartTag> {
  let i = 0;
  while (i < html.length) {
    const open = html.indexOf('<', i);
    if (open === -1) return;
    if (html.startsWith('<!--', open)) {
      // `<!-->` and `<!--->` are whole (empty) comments to a browser.
      const short = html.startsWith('<!-->', open) ? 5 : html.startsWith('<!--->', open) ? 6 : 0;
      const close = short ? open + short - 3 : html.indexOf('-->', open + 4);
      i = close === -1 ? html.length : close + 3;
      continue;
    }
    if (html[open + 1] === '!' || html[open + 1] === '?' || html[open + 1] === '/') {
      const close = html.indexOf('>', open + 1);
      i = close === -1 ? html.length : close + 1;
      continue;
    }
    const name = matchAt(TAG_NAME, html, open + 1);
    if (!name) {
      i = open + 1; // a '<' in text
      continue;
    }
    const { attributes, end } = readAttributes(html, open + 1 + name.length);
    const lower = name.toLowerCase();
    if (lower === 'script' || lower === 'style') {
      const endTag = new RegExp(`</${lower}[\\t\\n\\f\\r />]`, 'ig');
      endTag.lastIndex = end;
      const close = endTag.exec(html);
      const textEnd = close ? close.index : html.length;
      yield { name: lower, attributes, text: html.slice(end, textEnd), start: open, end };
      i = textEnd;
      continue;
    }
    yield { name: lower, attributes, text: null, start: open, end };
    i = end;
  }
}

/**
 * The page with `<` and `>` inside every attribute value written as `&lt;` and `&gt;` (the same
 * value to a browser): member text in an attribute, such as a bio in `<meta name="description">`
 * or an island's props, then reads as text to any tool that scans the page.
 */
export function escapeAttributeBrackets(html: string): string {
  const parts: string[] = [];
  let done = 0;
  for (const tag of startTags(html)) {
    for (const { valueStart, valueEnd } of tag.attributes) {
      if (valueStart < 0 || !/[<>]/.test(html.slice(valueStart, valueEnd))) continue;
      parts.push(html.slice(done, valueStart));
      parts.push(html.slice(valueStart, valueEnd).replaceAll('<', '&lt;').replaceAll('>', '&gt;'));
      done = valueEnd;
    }
  }
  parts.push(html.slice(done));
  return parts.join('');
}
