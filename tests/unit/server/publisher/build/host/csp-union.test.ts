import { describe, expect, test } from 'vitest';
import { pageCsp } from '../../../../../../server/http/page-csp.ts';
import { unionCsp } from '../../../../../../server/publisher/build/host/csp-union.ts';

const directives = (csp: string) =>
  new Map(csp.split('; ').map((part) => [part.split(' ')[0], new Set(part.split(' ').slice(1))]));

/** The policy a browser enforces for two CSP headers: each directive's sources in both. */
function intersect(a: string, b: string): Map<string | undefined, Set<string>> {
  const [left, right] = [directives(a), directives(b)];
  return new Map(
    [...left].map(([name, sources]) => [name, new Set([...sources].filter((s) => right.get(name)?.has(s)))]),
  );
}

describe('unionCsp', () => {
  const home = pageCsp('<script>home()</script><style>a{}</style>', { secure: true });
  const privacy = pageCsp('<script>privacy()</script>', { secure: true });
  const union = unionCsp([home, privacy]);

  test("allows every page's inline hashes and keeps the shared directives once", () => {
    const script = directives(union).get('script-src');
    for (const csp of [home, privacy]) {
      for (const source of directives(csp).get('script-src') ?? []) expect(script?.has(source)).toBe(true);
    }
    expect(union.match(/frame-ancestors/g)).toHaveLength(1);
    expect(union).toContain('upgrade-insecure-requests');
  });

  test("intersected with one page's policy it is that policy exactly", () => {
    expect(intersect(union, home)).toEqual(directives(home));
    expect(intersect(union, privacy)).toEqual(directives(privacy));
    expect(intersect(union, home).get('script-src')?.size).toBeLessThan(
      directives(union).get('script-src')?.size ?? 0,
    );
  });

  test("drops 'none' where another source is allowed", () => {
    expect(unionCsp(["default-src 'none'; img-src 'none'", "default-src 'self'"])).toBe(
      "default-src 'self'; img-src 'none'",
    );
  });
});
