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

/** What a file's headers depend on besides its length, ETag and encoding. */
export interface HeaderParts {
  contentType: string;
  cacheControl: string;
  /** A page-specific Content-Security-Policy (HTML pages); other files get the strict default. */
  csp: string | undefined;
  /** Whether the file has a compressed variant (then caches must vary on Accept-Encoding). */
  varies: boolean;
}

/** The headers of one encoding of a file: a 200's (`headers`) and a 304's (`notModified`). */
export function answerHeaders(
  parts: HeaderParts,
  { length, etag, encoding }: { length: number; etag: string; encoding: string | undefined },
  secure: boolean,
): Pick<FileResponse, 'headers' | 'notModified'> {
  const common: Record<string, string> = {
    'content-type': parts.contentType,
    'cache-control': parts.cacheControl,
    etag,
  };
  if (parts.varies) common.vary = 'Accept-Encoding';
  for (const [name, value] of securityHeaders({ secure })) {
    const lower = name.toLowerCase();
    common[lower] = lower === 'content-security-policy' && parts.csp ? parts.csp : value;
  }
  const headers = { ...common };
  if (encoding) headers['content-encoding'] = encoding;
  headers['content-length'] = String(length);
  return { headers, notModified: common };
}

/** The ETag of a compressed variant: the file's own, marked with the coding (`"tag-br"`). */
export function variantETag(etag: string, suffix: 'br' | 'gz'): string {
  return `${etag.slice(0, -1)}-${suffix}"`;
}

function response(
  parts: FileParts,
  body: Buffer,
  etag: string,
  encoding: string | undefined,
  secure: boolean,
): FileResponse {
  const header = { ...parts, varies: Boolean(parts.br || parts.gzip) };
  return { etag, body, ...answerHeaders(header, { length: body.length, etag, encoding }, secure) };
}

/**
 * Every answer a static file can give, precomputed: both the early path and the Fastify route send
 * these header sets as they are, so the two paths cannot drift apart.
 */
export function fileResponses(parts: FileParts, secure: boolean): FileResponses {
  const tagged = (suffix: 'br' | 'gz') => variantETag(parts.etag, suffix);
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
export function chooseResponse<T>(
  responses: { identity: T; br: T | undefined; gzip: T | undefined },
  acceptEncoding: string | undefined,
): T {
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
