/**
 * A fixture upstream on 127.0.0.1 whose response time is log-normal: median `medianMs`, and a
 * tail whose p99 is about `tailRatio` times the median. Counts the requests it receives, and
 * those whose client gave up before the answer (aborted hedges).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HeavyTailedUpstream {
  readonly url: string;
  readonly stats: { received: number; abandoned: number };
  close(): Promise<void>;
}

/** z of the 99th percentile of the standard normal. */
const Z99 = 2.326;

export async function startHeavyTailedUpstream(
  medianMs = 20,
  tailRatio = 12,
  random: () => number = Math.random,
): Promise<HeavyTailedUpstream> {
  const sigma = Math.log(tailRatio) / Z99;
  const stats = { received: 0, abandoned: 0 };
  const normal = (): number => {
    const u = 1 - random();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
  };
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/page`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
