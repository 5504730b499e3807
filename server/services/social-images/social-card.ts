import { SITE } from '../../../contract/site.ts';
import { SOCIAL_IMAGE_SIZE } from '../../../contract/social-image.ts';
import { escapeHtml } from '../../http/html-escape.ts';

/** What one link preview picture says (decision 048): drawn as SVG, then rendered to PNG. */
export interface SocialCard {
  /** Top right, small: what the page is ("Thread", "Topic", "Member"). */
  kind: string;
  /** The large words: a thread's text, a topic's tag, a member's name. */
  headline: string;
  /** Large (a name or tag, 1-2 lines) or text (a quote, up to 5 lines). */
  headlineStyle: 'name' | 'quote';
  /** Smaller words under the headline (a bio), up to 3 lines; may be empty. */
  body: string;
  /** The bottom line: who, where, when. */
  footer: string;
}

// The site's light palette (src/styles/global.css): previews show on light and dark apps alike.
const PAPER = '#f7f6f2';
const INK = '#18171c';
const MUTED = '#5b5963';
const ACCENT = '#2f3bc4';
const STRIPE = ['#1f3a5f', '#e07a5f', '#81b29a', '#f2cc8f'];
// sharp draws text with the fonts the machine has (fontconfig); Geist when installed, else these.
const FONTS = "Geist, Inter, 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif";
const LEFT = 80;
const TEXT_WIDTH = SOCIAL_IMAGE_SIZE.width - 2 * LEFT;

/** How wide a character draws, in units of a typical Latin letter: CJK and emoji take two. */
function charWidth(char: string): number {
  return /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Extended_Pictographic}]/u.test(
    char,
  )
    ? 2
    : 1;
}

const widthOf = (text: string) => Array.from(text).reduce((sum, char) => sum + charWidth(char), 0);

/** Cuts a word longer than a line into pieces that fit (a URL, a run of CJK text). */
function pieces(word: string, max: number): string[] {
  const out: string[] = [];
  let current = '';
  for (const char of Array.from(word)) {
    if (widthOf(current + char) > max && current) {
      out.push(current);
      current = '';
    }
    current += char;
  }
  if (current) out.push(current);
  return out;
}

/**
 * The text broken into at most `maxLines` lines of about `maxWidth` letters (an estimate: SVG does
 * not wrap, and the drawing font is the machine's), the last one ending in an ellipsis when cut.
 */
export function wrapLines(text: string, maxWidth: number, maxLines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const lines: string[] = [];
  let line = '';
  let cut = false;
  for (const word of words.flatMap((w) => pieces(w, maxWidth))) {
    const next = line ? `${line} ${word}` : word;
    if (widthOf(next) <= maxWidth) {
      line = next;
      continue;
    }
    lines.push(line);
    line = word;
    if (lines.length === maxLines) {
      cut = true;
      break;
    }
  }
  if (!cut && line) lines.push(line);
  if (cut || lines.length > maxLines) {
    const last = Array.from(lines[maxLines - 1] ?? '');
    while (last.length > 0 && widthOf(last.join('')) > maxWidth - 1) last.pop();
    lines.length = maxLines;
    lines[maxLines - 1] = `${last.join('').trimEnd()}…`;
  }
  return lines;
}

/**
 * Control and bidi-override characters draw as boxes or reorder text, and XML refuses noncharacters
 * and lone surrogates (sharp failed on a bio stored with U+FFFE before decision 062): none reaches a
 * picture, whatever text was stored before the rule.
 */
const clean = (text: string) => text.replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Noncharacter_Code_Point}]/gu, ' ');

function textLines(lines: string[], x: number, y: number, size: number, lineHeight: number, attrs: string) {
  return lines
    .map(
      (line, i) =>
        `<text x="${x}" y="${y + i * lineHeight}" font-size="${size}" ${attrs}>${escapeHtml(line)}</text>`,
    )
    .join('');
}

/** The picture as SVG, 1200×630: the site's name and the page's kind on top, the words, a footer. */
export function socialCardSvg(card: SocialCard): string {
  const { width, height } = SOCIAL_IMAGE_SIZE;
  const font = `font-family="${FONTS}"`;
  const name = card.headlineStyle === 'name';
  const size = name ? 88 : 46;
  // About 0.55 em per letter for a sans-serif: the estimate wrapLines needs.
  const perLine = Math.floor(TEXT_WIDTH / (size * 0.55));
  const headline = wrapLines(clean(card.headline), perLine, name ? 2 : 5);
  const lineHeight = Math.round(size * 1.25);
  // Baselines: a large name needs its cap height clear of the site's name above it.
  const headlineTop = name ? 250 : 190;
  const bodyTop = headlineTop + (headline.length - 1) * lineHeight + (name ? 84 : 72);
  const body = card.body ? wrapLines(clean(card.body), Math.floor(TEXT_WIDTH / (34 * 0.55)), 3) : [];
  const stripe = STRIPE.map(
    (fill, i) =>
      `<rect x="${(i * width) / 4}" y="${height - 14}" width="${width / 4}" height="14" fill="${fill}"/>`,
  ).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<rect width="${width}" height="${height}" fill="${PAPER}"/>
<text x="${LEFT}" y="96" ${font} font-size="32" font-weight="600" fill="${INK}">${escapeHtml(SITE.title)}</text>
<text x="${width - LEFT}" y="96" ${font} font-size="28" fill="${ACCENT}" text-anchor="end">${escapeHtml(card.kind)}</text>
${textLines(headline, LEFT, headlineTop, size, lineHeight, `${font} font-weight="${name ? 600 : 500}" fill="${INK}"`)}
${textLines(body, LEFT, bodyTop, 34, 46, `${font} fill="${MUTED}"`)}
${textLines(wrapLines(clean(card.footer), Math.floor(TEXT_WIDTH / (28 * 0.55)), 1), LEFT, height - 64, 28, 36, `${font} fill="${MUTED}"`)}
${stripe}
</svg>`;
}
