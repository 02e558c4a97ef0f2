import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether `redis-server` is on PATH. @publicApi */
export const redisServerAvailable =
  spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/**
 * A throwaway `redis-server` on 127.0.0.1 (a free port, no persistence, its own temp dir) for
 * integration tests and benchmarks; `kill()` and `restart()` play an outage.
 *
 * @example
 * const redis = await RedisServer.start();
 * const store = new RedisBreakerStore({ connection: new Redis(redis.url) });
 * await redis.kill();    // Redis gone: the store degrades
 * await redis.restart(); // back, empty, on the same port
 * await redis.stop();
 * @publicApi
 */
export class RedisServer {
  private process?: ChildProcess;
  private readonly dir = mkdtempSync(join(tmpdir(), 'toolshield-redis-'));

  private constructor(readonly port: number) {}

  /** Starts a server on a free port and waits until it accepts connections. */
  static async start(): Promise<RedisServer> {
    const server = new RedisServer(await freePort());
    await server.restart();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** (Re)starts the server on the same port, empty. */
  async restart(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    this.process = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start in 5 s')), 5_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}`));
      });
    });
    child.stdout?.resume();
  }

  /** Kills the server (SIGKILL: no goodbye to the clients) and waits for it to exit. */
  async kill(): Promise<void> {
    const child = this.process;
    this.process = undefined;
    if (child === undefined || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
