import type { Socket } from 'node:net';

/**
 * A GET of `path` on a raw `socket` (identity encoding, so the length is Content-Length): the status
 * line once the whole answer arrived, or null if the server closed the connection instead. With
 * `connection: 'keep-alive'` (the default) the socket stays open and idle afterwards.
 */
export async function keepAliveGet(
  socket: Socket,
  path: string,
  { host = '127.0.0.1', connection = 'keep-alive' }: { host?: string; connection?: string } = {},
): Promise<string | null> {
  if (socket.destroyed) return null;
  return new Promise((resolve) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = received.subarray(0, end).toString();
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? NaN);
      if (received.length - end - 4 >= length) done(head.split('\r\n')[0] ?? '');
    };
    const onClose = () => done(null);
    const done = (result: string | null) => {
      socket.off('data', onData);
      socket.off('close', onClose);
      resolve(result);
    };
    socket.on('data', onData);
    socket.on('close', onClose);
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAccept-Encoding: identity\r\nConnection: ${connection}\r\n\r\n`,
    );
  });
}
