import { expect, it } from '@jest/globals';
import { Injectable, Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { VirtualClock } from '@toolshield/core/testing';
import { Tool, ToolExecutor, ToolShieldModule } from '@toolshield/nest';
import { Redis } from 'ioredis';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { RedisToolCacheStore } from '../src/index.js';
import { describeWithRedis } from './support/describe-with-redis.js';
import { useRedisServer } from './support/redis-suite.js';

/** Where the search tool sends its requests: the upstream child process of the test. */
let upstreamUrl = '';

@Injectable()
class SearchTools {
  @Tool({
    description: 'Searches the web.',
    idempotent: true,
    annotations: { readOnlyHint: true },
    cache: { ttlMs: 60_000, staleIfErrorMs: 600_000 },
  })
  async web_search(args: { q: string }) {
    const response = await fetch(`${upstreamUrl}search?q=${encodeURIComponent(args.q)}`);
    return (await response.json()) as unknown;
  }
}

/** The upstream, in a child process: the instances reach it over a real socket. */
class UpstreamProcess {
  private constructor(private readonly child: ChildProcess) {}

  static async start(): Promise<{ upstream: UpstreamProcess; url: string }> {
    const child = fork(
      fileURLToPath(new URL('fixtures/search-upstream.mjs', import.meta.url)),
      [],
      {
        env: { ...process.env, NODE_OPTIONS: '' },
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    const [ready] = (await once(child, 'message')) as [{ port: number }];
    return { upstream: new UpstreamProcess(child), url: `http://127.0.0.1:${ready.port}/` };
  }

  async requests(): Promise<number> {
    this.child.send('count');
    const [reply] = (await once(this.child, 'message')) as [{ requests: number }];
    return reply.requests;
  }

  /** Kills it outright: its port refuses connections from now on. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.kill('SIGKILL');
    await exited;
  }
}

describeWithRedis('a tool cache shared on a real Redis, the upstream in a child process', () => {
  const suite = useRedisServer();

  async function instance(prefix: string) {
    const connection = new Redis(suite.server.url, { maxRetriesPerRequest: 1 });
    const clock = new VirtualClock({ startMs: 1_000_000 });
    const moduleRef = await Test.createTestingModule({
      imports: [
        ToolShieldModule.forRoot({
          clock,
          defaults: { retry: { maxRetries: 0 } },
          cacheStore: new RedisToolCacheStore({ connection, keyPrefix: prefix }),
        }),
      ],
      providers: [SearchTools],
    }).compile();
    moduleRef.useLogger(false);
    Logger.overrideLogger(false);
    await moduleRef.init();
    suite.cleanups.push(async () => {
      await moduleRef.close();
      connection.disconnect();
    });
    const executor = moduleRef.get(ToolExecutor);
    const search = (id: string, q = 'circuit breakers') =>
      executor.execute({ id, name: 'web_search', arguments: { q } });
    return { clock, search };
  }

  it('one instance answers from what the other cached, and both answer stale once the upstream is dead', async () => {
    const { upstream, url } = await UpstreamProcess.start();
    suite.cleanups.push(() => upstream.kill());
    upstreamUrl = url;
    const prefix = `cache-${Date.now()}:`;
    const a = await instance(prefix);
    const b = await instance(prefix);

    const first = await a.search('a1');
    expect(first).toMatchObject({ success: true, metadata: { cache: { lookup: 'miss' } } });
    const fromA = await b.search('b1', 'circuit breakers');
    expect(fromA).toMatchObject({ success: true, metadata: { cache: { lookup: 'hit' } } });
    expect(fromA.success && fromA.output).toEqual(first.success && first.output);
    expect(await upstream.requests()).toBe(1);

    // Other arguments are another entry.
    await b.search('b2', 'retries');
    expect(await upstream.requests()).toBe(2);

    await upstream.kill();
    await a.clock.advanceBy(120_000);
    await b.clock.advanceBy(120_000);
    for (const [name, node] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const stale = await node.search(`${name}-stale`);
      expect(stale).toMatchObject({
        success: true,
        metadata: { cache: { lookup: 'stale', ageMs: 120_000, staleBecause: 'network' } },
        output: {
          note: expect.stringMatching(
            /^Stale answer from 2 min ago: the tool failed now \(network\)/,
          ),
        },
      });
    }
    // Nothing was cached for this one: the model reads the failure.
    expect(await a.search('a-new', 'bulkheads')).toMatchObject({
      success: false,
      errorType: 'network',
    });
  });
});
