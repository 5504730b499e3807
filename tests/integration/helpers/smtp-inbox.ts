import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A received message: the envelope's recipients and the parsed mail. */
export interface Received {
  to: string[];
  mail: ParsedMail;
}

export interface SmtpInbox {
  /** SMTP_URL for the app under test. */
  url: string;
  received: Received[];
  /** Refuse the next `count` messages with a 451 (a temporary failure), as a busy server would. */
  refuseNext(count: number): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on loopback, receiving into memory: no TLS, no
 * login, every address accepted. On a free port unless given one (a browser test's server was
 * started with its SMTP_URL before the test).
 */
export async function startSmtpInbox(port = 0): Promise<SmtpInbox> {
  const received: Received[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const refuse = refusals > 0;
      if (refuse) refusals--;
      simpleParser(stream).then(
        (mail) => {
          if (refuse) {
            const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
            callback(error);
            return;
          }
          received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), mail });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  const { port: listening } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${listening}`,
    received,
    refuseNext: (count) => {
      refusals = count;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a received mail's text part that starts with `prefix`. */
export function linkIn(received: Received, prefix: string): string {
  const text = received.mail.text ?? '';
  const found = text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!found) throw new Error(`no link starting with ${prefix} in:\n${text}`);
  return found;
}

/** A header of a received mail as it was sent (mailparser turns some into objects), unfolded. */
export function rawHeader(received: Received, name: string): string | undefined {
  const line = received.mail.headerLines.find((header) => header.key === name.toLowerCase())?.line;
  return line
    ?.slice(line.indexOf(':') + 1)
    .replace(/\r?\n\s+/g, ' ')
    .trim();
}
