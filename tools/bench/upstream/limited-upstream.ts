/**
 * A fixture upstream on 127.0.0.1 that enforces a rate limit its clients are not told about.
 * Two ways real APIs do it:
 * - `fixed-window`: N requests per one-second window, as express-rate-limit does, answering
 *   429 with a whole-second `Retry-After` and the IETF `RateLimit-Policy`/`RateLimit` headers
 *   on every response;
 * - `token-bucket`: a GCRA bucket (rate N/s, burst 5) answering 429 with `Retry-After` and the
 *   precise `retry-after-ms` (as OpenAI's and Azure's APIs do), and no other headers.
 * The limit may change while it runs. Every response takes `latencyMs`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type UpstreamMode = 'fixed-window' | 'token-bucket';

export interface LimitedUpstream {
  readonly url: string;
  readonly stats: { ok: number; refused: number };
  /** Successful requests per elapsed second since start. */
  readonly acceptedPerSecond: number[];
  close(): Promise<void>;
}

const BURST = 5;

export async function startLimitedUpstream(
  mode: UpstreamMode,
  limitAt: (elapsedMs: number) => number,
  latencyMs = 10,
): Promise<LimitedUpstream> {
  const started = performance.now();
  const stats = { ok: 0, refused: 0 };
  const acceptedPerSecond: number[] = [];
  let window = -1;
  let used = 0;
  let tat = 0;

  const decide = (elapsed: number): { ok: boolean; headers: Record<string, string> } => {
    const limit = limitAt(elapsed);
    if (mode === 'fixed-window') {
      const current = Math.floor(elapsed / 1000);
      if (current !== window) [window, used] = [current, 0];
      const ok = used < limit;
      if (ok) used++;
      const resetS = Math.max(1, Math.ceil((1000 - (elapsed % 1000)) / 1000));
      const headers: Record<string, string> = {
        'ratelimit-policy': `"default";q=${limit};w=1`,
        ratelimit: `"default";r=${Math.max(0, limit - used)};t=${resetS}`,
      };
      if (!ok) headers['retry-after'] = String(resetS);
      return { ok, headers };
    }
    const interval = 1000 / limit;
    const tolerance = (BURST - 1) * interval;
    if (elapsed >= tat - tolerance) {
      tat = Math.max(elapsed, tat) + interval;
      return { ok: true, headers: {} };
    }
    const waitMs = Math.ceil(tat - tolerance - elapsed);
    return {
      ok: false,
      headers: {
        'retry-after': String(Math.ceil(waitMs / 1000)),
        'retry-after-ms': String(waitMs),
      },
    };
  };

  const server: Server = createServer((request, response) => {
    request.resume();
    const elapsed = performance.now() - started;
    const { ok, headers } = decide(elapsed);
    if (ok) {
      stats.ok++;
      const second = Math.floor(elapsed / 1000);
      acceptedPerSecond[second] = (acceptedPerSecond[second] ?? 0) + 1;
    } else stats.refused++;
    setTimeout(() => {
      response.writeHead(ok ? 200 : 429, { 'content-type': 'application/json', ...headers });
      response.end(ok ? '{"ok":true}' : '{"error":"rate limited"}');
    }, latencyMs);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/search`,
    stats,
    acceptedPerSecond,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
