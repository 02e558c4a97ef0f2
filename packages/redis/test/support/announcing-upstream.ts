import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** The header an instance's calls carry, saying which instance sent them. */
export const INSTANCE_HEADER = 'x-instance';

/** What the upstream counted: when each call arrived (epoch ms, with a fraction). */
export interface UpstreamCount {
  readonly arrivals: number[];
}

/**
 * The upstream's own process: it stamps each call when it arrives, whatever the callers'
 * event loop is doing (in the callers' process a stall would stamp the calls it held back
 * together, which no client can undo).
 */
const SERVER = `
const { createServer } = require('node:http');
const [limit, hearer] = process.argv.slice(1);
const arrivals = [];
const server = createServer((request, response) => {
  const at = performance.timeOrigin + performance.now();
  arrivals.push(at);
  if (request.headers['${INSTANCE_HEADER}'] !== hearer) return response.writeHead(200).end('ok');
  response.writeHead(200, { 'RateLimit-Policy': '"default";q=' + limit + ';w=1' }).end('ok');
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', () => process.send({ arrivals }));
`;

/**
 * An HTTP upstream on 127.0.0.1, in a process of its own, that answers every call `200` and
 * announces its limit (`RateLimit-Policy: "default";q=…;w=1`) to one instance's calls only
 * (those whose {@link INSTANCE_HEADER} names it), as an upstream announcing per client or on
 * some answers does.
 */
export class AnnouncingUpstream {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(limit: number, hearer: string): Promise<AnnouncingUpstream> {
    const child = spawn(process.execPath, ['-e', SERVER, String(limit), hearer], {
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const [{ port }] = (await once(child, 'message')) as [{ port: number }];
    return new AnnouncingUpstream(child, `http://127.0.0.1:${port}/`);
  }

  /** What it counted so far. */
  async count(): Promise<UpstreamCount> {
    const reply = once(this.child, 'message') as Promise<[UpstreamCount]>;
    this.child.send('count');
    return (await reply)[0];
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill();
    await exited;
  }
}
