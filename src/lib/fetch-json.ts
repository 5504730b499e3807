/** GETs a JSON document; any non-2xx status or network failure throws. */
export async function fetchJson(url: string, init?: RequestInit): Promise<unknown> {
  const response = await fetch(url, { credentials: 'include', ...init });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return response.json();
}
