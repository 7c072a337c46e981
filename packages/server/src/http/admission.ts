import type { IncomingMessage, ServerResponse } from 'node:http';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Request-level admission for the embedded database (docs/areas/performance.md "Load"). PGlite runs one statement at a
 * time; with hundreds of requests in flight, each of a request's statements queues behind every other request's, so
 * a request of ten statements waits ten queue lengths and some wait past any client's timeout (48 of 19,306 requests
 * over 10 s at 200 connections). Admitting `limit` requests at a time, first come first served, makes a request wait
 * once, in line, then run its statements against a short queue: the mean stays (the database's speed is the
 * database's speed) and the tail comes in. Waiting requests are only queued sockets, so memory under load stays flat.
 */
export function admitInOrder(listener: Listener, limit: number): Listener {
  let running = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    running -= 1;
    const next = waiting.shift();
    if (next) next();
  };
  return (req, res) => {
    const admit = () => {
      running += 1;
      let released = false;
      const done = () => {
        if (released) return;
        released = true;
        release();
      };
      res.once('finish', done);
      res.once('close', done);
      listener(req, res);
    };
    if (running < limit) {
      admit();
      return;
    }
    // A client that leaves while waiting gives up its place.
    const leave = () => {
      const index = waiting.indexOf(entry);
      if (index >= 0) waiting.splice(index, 1);
    };
    const entry = () => {
      res.off('close', leave);
      admit();
    };
    res.once('close', leave);
    waiting.push(entry);
  };
}
