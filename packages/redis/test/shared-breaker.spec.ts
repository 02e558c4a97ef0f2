import { expect, it } from '@jest/globals';
import { TerminusModule } from '@nestjs/terminus';
import { Test } from '@nestjs/testing';
import { CircuitBreakerRegistry, CircuitOpenError } from '@toolshield/core';
import { Redis } from 'ioredis';
import { ToolShieldRedisHealthIndicator } from '../src/health/index.js';
import { RedisBreakerStore } from '../src/index.js';
import { eventually } from './support/eventually.js';
import { describeWithRedis } from './support/describe-with-redis.js';
import { useRedisServer } from './support/redis-suite.js';

const fail = (): Promise<never> => Promise.reject(new Error('upstream down'));
const ok = (): Promise<string> => Promise.resolve('ok');

describeWithRedis('breakers shared on a real Redis (two instances in this process)', () => {
  const suite = useRedisServer();
  const { cleanups } = suite;

  function instance(prefix: string) {
    const connection = new Redis(suite.server.url, {
      maxRetriesPerRequest: 1,
      retryStrategy: () => 20,
    });
    const store = new RedisBreakerStore({ connection, keyPrefix: prefix, commandTimeoutMs: 100 });
    const registry = new CircuitBreakerRegistry({
      store,
      defaults: { volumeThreshold: 10, errorThresholdPercentage: 50, resetTimeoutMs: 300 },
    });
    cleanups.push(async () => {
      registry.dispose();
      await store.close();
      connection.disconnect();
    });
    return { store, registry, connection, breaker: () => registry.get('search') };
  }

  async function healthOf(store: RedisBreakerStore): Promise<ToolShieldRedisHealthIndicator> {
    const moduleRef = await Test.createTestingModule({
      imports: [TerminusModule.forRoot({ logger: false })],
      providers: [ToolShieldRedisHealthIndicator, { provide: RedisBreakerStore, useValue: store }],
    }).compile();
    cleanups.push(() => moduleRef.close());
    return moduleRef.get(ToolShieldRedisHealthIndicator);
  }

  async function ready(...instances: ReturnType<typeof instance>[]) {
    for (const one of instances) {
      one.breaker();
      await eventually(() => one.connection.status === 'ready');
    }
    await new Promise((resolve) => setTimeout(resolve, 30));
  }

  it('an instance whose breaker opens takes the others with it within 100 ms, and a close too', async () => {
    const a = instance('t1:');
    const b = instance('t1:');
    await ready(a, b);
    a.breaker().open();
    expect(await eventually(() => b.breaker().state === 'open')).toBeLessThan(100);
    await expect(b.breaker().execute(ok)).rejects.toBeInstanceOf(CircuitOpenError);
    b.breaker().close();
    expect(await eventually(() => a.breaker().state === 'closed')).toBeLessThan(100);
  });

  it('counts every instance in the opening decision', async () => {
    const a = instance('t2:');
    const b = instance('t2:');
    await ready(a, b);
    for (let i = 0; i < 5; i++)
      await a
        .breaker()
        .execute(fail)
        .catch(() => undefined);
    expect(a.breaker().state).toBe('closed');
    await eventually(() => (b.store.remote('search')?.failures ?? 0) === 5);
    for (let i = 0; i < 5; i++)
      await b
        .breaker()
        .execute(fail)
        .catch(() => undefined);
    expect(b.breaker().state).toBe('open');
    await eventually(() => a.breaker().state === 'open', 100);
  });

  it('lets one trial call through across instances while half-open', async () => {
    const a = instance('t3:');
    const b = instance('t3:');
    await ready(a, b);
    a.breaker().open();
    await eventually(() => a.breaker().state === 'half_open' && b.breaker().state === 'half_open');
    let release!: () => void;
    const held = new Promise<string>((resolve) => (release = () => resolve('ok')));
    let ran = 0;
    const trial = () => {
      ran++;
      return held;
    };
    const outcomes = Promise.allSettled([a.breaker().execute(trial), b.breaker().execute(trial)]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    const settled = await outcomes;
    expect(ran).toBe(1);
    expect(settled.filter((outcome) => outcome.status === 'rejected')).toHaveLength(1);
    await eventually(() => a.breaker().state === 'closed' && b.breaker().state === 'closed');
  });

  it('does not let a stalled Redis hold a call past the command timeout', async () => {
    const a = instance('t5:');
    await ready(a);
    a.breaker().open();
    await eventually(() => a.breaker().state === 'half_open');
    const staller = new Redis(suite.server.url);
    cleanups.push(() => void staller.disconnect());
    const stall = staller.eval(
      "local t = redis.call('TIME'); local s = t[1] * 1000 + t[2] / 1000; repeat t = redis.call('TIME') until t[1] * 1000 + t[2] / 1000 - s > 400; return 1",
      0,
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const start = Date.now();
    await expect(a.breaker().execute(ok)).resolves.toBe('ok');
    expect(Date.now() - start).toBeLessThan(300);
    expect(a.store.health().status).toBe('degraded');
    await stall;
    await eventually(() => a.store.health().status === 'shared');
  });

  it('keeps deciding locally while Redis is down, says degraded, and rejoins when it is back', async () => {
    const a = instance('t4:');
    const b = instance('t4:');
    await ready(a, b);
    const health = await healthOf(a.store);
    expect(health.isHealthy()).toEqual({
      'toolshield-redis': { status: 'up', instanceId: a.store.instanceId },
    });
    await suite.server.kill();
    await eventually(() => a.store.health().status === 'degraded');
    expect(health.isHealthy()['toolshield-redis']).toMatchObject({ status: 'degraded' });
    for (let i = 0; i < 10; i++)
      await a
        .breaker()
        .execute(fail)
        .catch(() => undefined);
    expect(a.breaker().state).toBe('open');
    expect(b.breaker().state).toBe('closed');
    await expect(b.breaker().execute(ok)).resolves.toBe('ok');

    await suite.server.restart();
    await eventually(
      () => a.store.health().status === 'shared' && b.store.health().status === 'shared',
      3_000,
    );
    await eventually(() => a.breaker().state === b.breaker().state);
    expect(health.isHealthy()['toolshield-redis']).toMatchObject({ status: 'up' });
    b.breaker().isolate();
    expect(await eventually(() => a.breaker().state === 'isolated')).toBeLessThan(100);
  });
});
