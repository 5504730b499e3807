/**
 * The origin that reaches a server listening on `host` and `port` from this machine: a wildcard
 * address (every interface: `0.0.0.0`, `::` or empty) is reached on loopback; IPv6 gets brackets.
 */
export function localOrigin(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}
