/** The path of a request URL without its query string (which can carry OAuth codes: never log or echo it). */
export function requestPath(url: string): string {
  const end = url.indexOf('?');
  return end === -1 ? url : url.slice(0, end);
}
