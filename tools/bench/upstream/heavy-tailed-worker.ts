/**
 * The heavy-tailed upstream's server, in its own worker thread (heavy-tailed-upstream.ts):
 * answers each request after a log-normal delay, posts its port, and its counts when asked.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { medianMs, sigma } = workerData as { medianMs: number; sigma: number };
const stats = { received: 0, abandoned: 0 };

/** One standard normal draw (Box–Muller). */
function normal(): number {
  const u = 1 - Math.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
}

const server = createServer((request, response) => {
  stats.received++;
  request.resume();
  const timer = setTimeout(
    () => response.end('{"ok":true}'),
    medianMs * Math.exp(sigma * normal()),
  );
  response.on('close', () => {
    if (!response.writableFinished) {
      stats.abandoned++;
      clearTimeout(timer);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  parentPort?.postMessage({ port: (server.address() as AddressInfo).port });
});
parentPort?.on('message', () => parentPort?.postMessage({ ...stats }));
