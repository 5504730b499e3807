/**
 * `/api/docs`: the OpenAPI document as one readable page for operators: every operation, who may
 * call it, its parameters, body and answers. Plain HTML with its own stylesheet hashed into the
 * page's CSP: no script, nothing from elsewhere.
 */
import { createHash } from 'node:crypto';
import { escapeHtml } from '../../http/html-escape.ts';

type Json = Record<string, unknown>;

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1c1b19;background:#fbfaf7}
h1{font-weight:600}h2{margin-top:2.5rem;border-bottom:1px solid #d9d5cc;text-transform:capitalize}
section{margin:1.5rem 0}h3{font:600 1rem ui-monospace,monospace;margin:.25rem 0}
.method{display:inline-block;min-width:4.5rem;color:#6b3fa0}p{margin:.25rem 0}
details{margin:.25rem 0}summary{cursor:pointer}
pre{background:#f1eee7;padding:.75rem;overflow:auto;font-size:13px;border-radius:6px}
@media (prefers-color-scheme:dark){body{background:#161514;color:#eceae4}pre{background:#23211e}.method{color:#c9a6f2}h2{border-color:#3a3732}}
`.trim();

/** The page's CSP: only its own stylesheet (hashed here, never from the rendered HTML). */
export const DOCS_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

function block(title: string, value: unknown): string {
  return `<details><summary>${escapeHtml(title)}</summary><pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre></details>`;
}

function operationHtml(path: string, method: string, operation: Json): string {
  const parts = [
    `<h3 id="${escapeHtml(String(operation.operationId))}"><span class="method">${method.toUpperCase()}</span> ${escapeHtml(path)}</h3>`,
    `<p>${escapeHtml(String(operation.description))}</p>`,
  ];
  if (operation.parameters) parts.push(block('Parameters', operation.parameters));
  const body = (operation.requestBody as Json | undefined)?.content;
  if (body) parts.push(block('Request body', body));
  for (const [status, answer] of Object.entries(operation.responses as Record<string, Json>)) {
    if (status.endsWith('XX')) continue;
    const content = answer.content as Record<string, Json> | undefined;
    const schema = content?.['application/json']?.schema;
    parts.push(
      schema
        ? block(`${status} answer`, schema)
        : `<p>${escapeHtml(`${status}: ${String(answer.description)}`)}</p>`,
    );
  }
  return `<section>${parts.join('')}</section>`;
}

/** The page for one OpenAPI document, grouped by each operation's first tag. */
export function docsPageHtml(document: Json): string {
  const info = document.info as { title: string; version: string; description: string };
  const groups = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = String((operation.tags as string[] | undefined)?.[0] ?? 'api');
      groups.set(tag, [...(groups.get(tag) ?? []), operationHtml(path, method, operation)]);
    }
  }
  const sections = [...groups].map(([tag, html]) => `<h2>${escapeHtml(tag)}</h2>${html.join('')}`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(info.title)}</title><style>${STYLE}</style></head><body><h1>${escapeHtml(info.title)} <small>${escapeHtml(info.version)}</small></h1><p>${escapeHtml(info.description)}</p><p>Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1). Errors answer <code>{"detail": "..."}</code> with a sentence.</p>${sections.join('')}</body></html>`;
}
