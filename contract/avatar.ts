const PALETTE = ['#4f46e5', '#0f766e', '#b45309', '#be123c', '#7c3aed', '#0369a1', '#4d7c0f', '#a21caf'];

/**
 * An avatar for a handle, drawn locally as an SVG data URI (its first letter on a colour picked
 * from the handle). The spec's external avatar service would tell a third party who is browsing.
 */
export function avatarFor(handle: string): string {
  const name = handle.replace(/^@/, '');
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  const colour = PALETTE[hash % PALETTE.length] ?? '#4f46e5';
  const letter = (/[a-z0-9]/i.exec(name)?.[0] ?? '?').toUpperCase();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="20" fill="${colour}"/><text x="20" y="26" font-family="sans-serif" font-size="18" font-weight="700" text-anchor="middle" fill="#fff">${letter}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
