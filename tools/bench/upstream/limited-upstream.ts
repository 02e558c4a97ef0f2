/**
 * A fixture upstream on 127.0.0.1 that enforces a rate limit its clients are not told about,
 * counted and announced as its kind says (upstream-counter.ts), in a child process of its own
 * (limited-upstream-process.ts). The limit may change every `phaseMs`. Every response takes
 * `latencyMs`. Its clock starts at the first request.
 */
import { fork } from 'node:child_process';
import type { UpstreamKind } from './upstream-counter.js';

export type { UpstreamKind } from './upstream-counter.js';

export interface LimitedUpstream {
  readonly url: string;
  /** Requests accepted and refused in each second since the first. */
  stats(): Promise<{ acceptedPerSecond: number[]; refusedPerSecond: number[] }>;
  close(): Promise<void>;
}

export async function startLimitedUpstream(
  kind: UpstreamKind,
  limits: readonly number[],
  phaseMs = 10_000,
  latencyMs = 10,
): Promise<LimitedUpstream> {
  const child = fork(
    new URL('./limited-upstream-process.js', import.meta.url),
    [kind, limits.join(','), String(phaseMs), String(latencyMs)],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const next = <T>(): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      child.once('message', (message) => resolve(message as T));
      child.once('error', reject);
    });
  const { port } = await next<{ port: number }>();
  return {
    url: `http://127.0.0.1:${port}/search`,
    stats: async () => {
      const answer = next<{ acceptedPerSecond: number[]; refusedPerSecond: number[] }>();
      child.send('stats');
      const counts = await answer;
      const dense = (values: number[]) => Array.from(values, (value) => value ?? 0);
      return {
        acceptedPerSecond: dense(counts.acceptedPerSecond),
        refusedPerSecond: dense(counts.refusedPerSecond),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}
