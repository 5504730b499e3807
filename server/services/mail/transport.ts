import nodemailer from 'nodemailer';

/** One message as the transport takes it. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  messageId: string;
}

/** What sends mail: nodemailer's SMTP transport here; anything with the same call elsewhere. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * The SMTP transport of SMTP_URL (decision 054). Pooled: a digest to many addresses reuses a few
 * connections. The URL may hold a password: it is never logged (nodemailer's logger stays off).
 */
export function smtpTransport(smtpUrl: string): MailTransport {
  // The URL's settings (host, port, user, password, secure) plus ours; `pool` keeps connections open.
  const transporter = nodemailer.createTransport(
    `${smtpUrl}${smtpUrl.includes('?') ? '&' : '?'}pool=true&maxConnections=2`,
  );
  return {
    async send(mail) {
      await transporter.sendMail(mail);
    },
    close: () => transporter.close(),
  };
}
