/**
 * A fixture upstream on 127.0.0.1 whose response time is log-normal: median `medianMs`, and a
 * tail whose p99 is about `tailRatio` times the median. It runs in a worker thread of its
 * own, so the client's work (the hedger's timers, parsing, the event loop's lag) never delays
 * its answers, as a real upstream's would not be. Counts the requests it receives, and those
 * whose client gave up before the answer (aborted hedges).
 */
import { Worker } from 'node:worker_threads';

export interface HeavyTailedUpstream {
  readonly url: string;
  /** The upstream's counts so far. */
  stats(): Promise<{ received: number; abandoned: number }>;
  close(): Promise<void>;
}

/** z of the 99th percentile of the standard normal. */
export const Z99 = 2.326;

export async function startHeavyTailedUpstream(
  medianMs = 20,
  tailRatio = 12,
): Promise<HeavyTailedUpstream> {
  const worker = new Worker(new URL('./heavy-tailed-worker.js', import.meta.url), {
    workerData: { medianMs, sigma: Math.log(tailRatio) / Z99 },
  });
  const next = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  const { port } = await next<{ port: number }>();
  return {
    url: `http://127.0.0.1:${port}/page`,
    stats: async () => {
      const answer = next<{ received: number; abandoned: number }>();
      worker.postMessage('stats');
      return answer;
    },
    close: async () => {
      await worker.terminate();
    },
  };
}
