import type { AddressInfo } from 'node:net';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

/** A local SMTP sink on 127.0.0.1 (no auth, no TLS): every accepted message, parsed, with its envelope recipients. */
export type SmtpSink = { url: string; received: (Email & { envelopeTo: string[] })[]; close: () => Promise<void> };

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: SmtpSink['received'] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks)).then((email) => {
          received.push({ ...email, envelopeTo: session.envelope.rcptTo.map((to) => to.address) });
          callback();
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
