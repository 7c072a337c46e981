// A local mail sink for the e2e suite, started by playwright.config.ts as a web server: it accepts the
// server's email over SMTP and serves what it received as JSON, so tests read real messages (spec: invitations).
import { createServer } from 'node:http';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

type ReceivedMail = { to: string[]; subject: string; text: string; html: string; receivedAt: number };

const smtpPort = Number(process.env.MAIL_SINK_SMTP_PORT);
const httpPort = Number(process.env.MAIL_SINK_HTTP_PORT);
const received: ReceivedMail[] = [];

const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS', 'AUTH'],
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      PostalMime.parse(Buffer.concat(chunks)).then((email) => {
        received.push({
          to: session.envelope.rcptTo.map((to) => to.address.toLowerCase()),
          subject: email.subject ?? '',
          text: email.text ?? '',
          html: email.html ?? '',
          receivedAt: Date.now(),
        });
        callback();
      }, callback);
    });
  },
});
smtp.listen(smtpPort, '127.0.0.1');

// GET /messages?to=<address> lists the messages for that recipient (all when absent); /status answers 204.
createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (url.pathname === '/status') {
    response.writeHead(204).end();
    return;
  }
  if (url.pathname !== '/messages') {
    response.writeHead(404).end();
    return;
  }
  const to = url.searchParams.get('to')?.toLowerCase();
  const messages = to ? received.filter((mail) => mail.to.includes(to)) : received;
  response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(messages));
}).listen(httpPort, '127.0.0.1');
