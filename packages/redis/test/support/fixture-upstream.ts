import { createServer, type Server } from 'node:http';

/**
 * An HTTP upstream on 127.0.0.1 that counts requests per second and can be switched down
 * (503, after `downDelayMs`: a dying upstream is often slow to fail).
 */
export class FixtureUpstream {
  /** Requests received, by the whole second they arrived in. */
  readonly perSecond = new Map<number, number>();
  /** When each request arrived (ms since the epoch). */
  readonly arrivals: number[] = [];
  requests = 0;
  down = false;
  downDelayMs = 0;
  /** Requests are left unanswered (until the server stops). */
  hanging = false;

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FixtureUpstream> {
    const upstream: FixtureUpstream = new FixtureUpstream(
      createServer((_request, response) => {
        upstream.requests++;
        const now = Date.now();
        upstream.arrivals.push(now);
        const second = Math.floor(now / 1_000);
        upstream.perSecond.set(second, (upstream.perSecond.get(second) ?? 0) + 1);
        if (upstream.hanging) return;
        if (!upstream.down) response.writeHead(200).end('ok');
        else setTimeout(() => response.writeHead(503).end('down'), upstream.downDelayMs);
      }),
    );
    await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
    return upstream;
  }

  get url(): string {
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
