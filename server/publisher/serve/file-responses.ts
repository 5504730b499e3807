import { securityHeaders } from '../../http/security-headers.ts';

/** One encoding of a file, with every header it is answered with, computed once at load. */
export interface FileResponse {
  etag: string;
  body: Buffer;
  /** The headers of a 200 (or of 404.html's 404): security headers, caching, type, length. */
  headers: Readonly<Record<string, string>>;
  /** The headers of a 304: the same without Content-Encoding and Content-Length. */
  notModified: Readonly<Record<string, string>>;
}

/** A file's answers per encoding; `br` and `gzip` exist only when they save bytes. */
export interface FileResponses {
  identity: FileResponse;
  br: FileResponse | undefined;
  gzip: FileResponse | undefined;
}

export interface FileParts {
  body: Buffer;
  br: Buffer | undefined;
  gzip: Buffer | undefined;
  etag: string;
  contentType: string;
  cacheControl: string;
  /** A page-specific Content-Security-Policy (HTML pages); other files get the strict default. */
  csp: string | undefined;
}

function response(
  parts: FileParts,
  body: Buffer,
  etag: string,
  encoding: string | undefined,
  secure: boolean,
): FileResponse {
  const common: Record<string, string> = {
    'content-type': parts.contentType,
    'cache-control': parts.cacheControl,
    etag,
  };
  if (parts.br || parts.gzip) common.vary = 'Accept-Encoding';
  for (const [name, value] of securityHeaders({ secure })) {
    const lower = name.toLowerCase();
    common[lower] = lower === 'content-security-policy' && parts.csp ? parts.csp : value;
  }
  const headers = { ...common };
  if (encoding) headers['content-encoding'] = encoding;
  headers['content-length'] = String(body.length);
  return { etag, body, headers, notModified: common };
}

/**
 * Every answer a static file can give, precomputed: both the early path and the Fastify route send
 * these header sets as they are, so the two paths cannot drift apart.
 */
export function fileResponses(parts: FileParts, secure: boolean): FileResponses {
  const tagged = (suffix: string) => `${parts.etag.slice(0, -1)}-${suffix}"`;
  return {
    identity: response(parts, parts.body, parts.etag, undefined, secure),
    br: parts.br ? response(parts, parts.br, tagged('br'), 'br', secure) : undefined,
    gzip: parts.gzip ? response(parts, parts.gzip, tagged('gz'), 'gzip', secure) : undefined,
  };
}

/** Whether Accept-Encoding allows `coding` (listed, and not with q=0). */
export function accepts(header: string | undefined, coding: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name, ...params] = part.trim().split(';');
    if (name?.trim().toLowerCase() !== coding) return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** Brotli when accepted, else gzip when accepted, else the file as it is. */
export function chooseResponse(responses: FileResponses, acceptEncoding: string | undefined): FileResponse {
  if (responses.br && accepts(acceptEncoding, 'br')) return responses.br;
  if (responses.gzip && accepts(acceptEncoding, 'gzip')) return responses.gzip;
  return responses.identity;
}

/** If-None-Match uses weak comparison (RFC 9110): a proxy may have turned our ETag into W/"...". */
export function matchesETag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}
