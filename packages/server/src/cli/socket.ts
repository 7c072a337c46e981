import { existsSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import type { Database } from '../db/client.ts';
import { CliError, type CommandName, commandSchemas, runCommand } from './commands.ts';

/**
 * PGlite's data directory can be open in one process only. While the server runs on it, the CLI
 * sends its command over a Unix socket in the data directory (file mode 0600: only the owner of
 * the data can use it) and the server runs it.
 */
export const cliSocketPath = (dataDir: string) => join(dataDir, 'cli.sock');

type Request = { command: CommandName; args: unknown };
type Response = { ok: true; result: unknown } | { ok: false; error: string };

export async function listenForCli(dataDir: string, db: Database, publicUrl: string): Promise<Server> {
  const path = cliSocketPath(dataDir);
  if (existsSync(path)) rmSync(path); // left over from a process that did not stop cleanly
  const server = createServer((socket) => {
    let buffer = '';
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      const end = buffer.indexOf('\n');
      if (end < 0) return;
      const reply = (response: Response) => socket.end(`${JSON.stringify(response)}\n`);
      let request: Request;
      try {
        request = JSON.parse(buffer.slice(0, end)) as Request;
      } catch {
        return reply({ ok: false, error: 'malformed request' });
      }
      if (!(request.command in commandSchemas)) return reply({ ok: false, error: 'unknown command' });
      runCommand(db, publicUrl, request.command, request.args)
        .then((result) => reply({ ok: true, result }))
        .catch((error: unknown) =>
          reply({
            ok: false,
            error: error instanceof CliError ? error.message : 'the server failed to run the command',
          }),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen({ path, readableAll: false, writableAll: false }, resolve));
  return server;
}

/** Sends a command to a running server; undefined when no server listens on the data directory. */
export function sendToServer(dataDir: string, request: Request): Promise<Response | undefined> {
  const path = cliSocketPath(dataDir);
  if (!existsSync(path)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let buffer = '';
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A stale socket file: nobody is listening.
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(undefined);
      else reject(error);
    });
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
    });
    socket.on('end', () => resolve(JSON.parse(buffer) as Response));
    socket.write(`${JSON.stringify(request)}\n`);
  });
}
