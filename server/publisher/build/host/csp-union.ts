/**
 * The union of several Content-Security-Policies built by `pageCsp`: every directive with every
 * source any of them allows, in first-seen order. Intersected with one of them (a browser enforces
 * every CSP header it gets) it gives back that one exactly, since each is a subset of the union.
 */
export function unionCsp(policies: readonly string[]): string {
  const directives = new Map<string, Set<string>>();
  for (const policy of policies) {
    for (const part of policy.split(';')) {
      const [name, ...sources] = part.trim().split(/\s+/);
      if (!name) continue;
      const known = directives.get(name) ?? new Set<string>();
      for (const source of sources) known.add(source);
      directives.set(name, known);
    }
  }
  return [...directives]
    .map(([name, sources]) => {
      // 'none' allows nothing: beside any other source it would make the directive invalid.
      if (sources.size > 1) sources.delete("'none'");
      return [name, ...sources].join(' ');
    })
    .join('; ');
}
