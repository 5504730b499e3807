/**
 * The Lighthouse step's reference: a blank page (a heading and a sentence, no script, no style, no
 * picture) served over loopback by node:http with the product's own security headers. Chromium's
 * cost of opening a page (committing the navigation in a new process, creating its script context)
 * is counted as blocking time under Lighthouse's 4x CPU slowdown, and `Cross-Origin-Opener-Policy`
 * alone makes Lighthouse's tab change process for it: here that is 200 ms of TBT on this blank page.
 * Measured beside each page, run for run, it tells what the machine and our headers cost from what
 * the page adds (decision 053).
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import { securityHeaders } from '../../server/http/security-headers.ts';

const BLANK_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Blank reference page</title>
<meta name="description" content="The Lighthouse step's reference: nothing but this text.">
</head>
<body><main><h1>Blank reference page</h1><p>Nothing else is on this page.</p></main></body>
</html>
`;

export interface BlankPage {
  url: string;
  stop(): Promise<void>;
}

/** Serves the blank page at `http://127.0.0.1:{port}/` until stopped. */
export async function startBlankPage(port: number): Promise<BlankPage> {
  const server = createServer((request, response) => {
    if (request.url !== '/') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // The product's headers (its strict CSP included: the page loads nothing), as on every page of ours.
    for (const [name, value] of securityHeaders({ secure: false })) response.setHeader(name, value);
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(BLANK_HTML);
  });
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
