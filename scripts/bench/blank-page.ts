/**
 * The Lighthouse step's reference: a blank page (a heading and a sentence, no script, no style, no
 * picture) served over loopback by node:http. Chromium's own cost of opening a page (committing the
 * navigation, creating the page's script context) is counted as blocking time under Lighthouse's 4x
 * CPU slowdown; on a slow virtual machine it alone can pass 50 ms. Measured beside each page, run
 * for run, it tells what the machine adds from what the page adds (decision 053).
 */
import { createServer } from 'node:http';
import { once } from 'node:events';

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
