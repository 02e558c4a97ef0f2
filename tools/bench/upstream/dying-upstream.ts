/**
 * A fixture upstream on 127.0.0.1 that answers 200 (after `latencyMs`) until it is told to
 * die, then 503 to every request, as a load balancer in front of a dead backend does. It
 * counts the requests it receives, and those received since it died.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DyingUpstream {
  readonly url: string;
  /** Requests received since {@link die} was called. */
  readonly receivedSinceDeath: () => number;
  die(): void;
  close(): Promise<void>;
}

export async function startDyingUpstream(latencyMs = 10): Promise<DyingUpstream> {
  let dead = false;
  let sinceDeath = 0;
  const server = createServer((request, response) => {
    request.resume();
    if (dead) {
      sinceDeath++;
      response.writeHead(503, { 'content-type': 'text/plain' }).end('backend down');
      return;
    }
    setTimeout(
      () => response.writeHead(200, { 'content-type': 'text/plain' }).end('ok'),
      latencyMs,
    );
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/search`,
    receivedSinceDeath: () => sinceDeath,
    die: () => {
      dead = true;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
