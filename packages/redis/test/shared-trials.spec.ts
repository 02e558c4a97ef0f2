import { expect, it } from '@jest/globals';
import { CircuitOpenError } from '@toolshield/core';
import fc from 'fast-check';
import { breakerInstance, sharing, type BreakerInstance } from './support/breaker-instance.js';
import { describeWithRedis } from './support/describe-with-redis.js';
import { eventually, REJOIN_WITHIN_MS } from './support/eventually.js';
import { useRedisServer } from './support/redis-suite.js';

/** A trial call held until the spec lets it end. */
interface HeldTrial {
  readonly outcome: Promise<string>;
  /** Settles when the call reached the upstream (it holds a trial slot then). */
  readonly started: Promise<void>;
  /** Lets the trial end: a success, or a failure when `fail`. */
  end(fail?: boolean): void;
}

/** Runs a call on `instance` that waits until `end` is called. */
function heldTrial(instance: BreakerInstance): HeldTrial {
  let end!: (fail?: boolean) => void;
  let start!: () => void;
  const started = new Promise<void>((resolve) => (start = resolve));
  const upstream = new Promise<string>((resolve, reject) => {
    end = (fail) => (fail ? reject(new Error('still down')) : resolve('ok'));
  });
  const outcome = instance
    .breaker()
    .execute(() => (start(), upstream))
    .then(
      () => 'ok',
      (error: unknown) => (error instanceof CircuitOpenError ? 'refused' : 'failed'),
    );
  return { outcome, started, end: (fail) => end(fail) };
}

const ok = (): Promise<string> => Promise.resolve('ok');
const states = (instances: readonly BreakerInstance[]): string[] =>
  instances.map((one) => one.breaker().state);

describeWithRedis('half-open trial calls decided across instances on a real Redis', () => {
  const suite = useRedisServer();
  let run = 0;

  /** Three instances sharing one breaker that allows `halfOpenMaxCalls` trials, half-open now. */
  async function halfOpenTrio(
    halfOpenMaxCalls: number,
    store: { trialLeaseMs?: number } = {},
  ): Promise<BreakerInstance[]> {
    const prefix = `trials${++run}:`;
    const trio = [0, 1, 2].map(() =>
      breakerInstance(suite, prefix, store, { halfOpenMaxCalls, resetTimeoutMs: 100 }),
    );
    await sharing(...trio);
    trio[0]?.breaker().open();
    await eventually(() => states(trio).every((state) => state === 'half_open'), REJOIN_WITHIN_MS);
    return trio;
  }

  /** Closes the instances of one property run (the suite's cleanups run after the test). */
  async function cleanUp(): Promise<void> {
    for (const cleanup of suite.cleanups.splice(0).reverse()) await cleanup();
  }

  it('closes every instance once all trial slots succeeded, whichever instances ran them', async () => {
    await fc.assert(
      fc
        .asyncProperty(
          fc
            .integer({ min: 1, max: 5 })
            .chain((slots) =>
              fc.array(fc.integer({ min: 0, max: 2 }), { minLength: slots, maxLength: slots }),
            ),
          async (placement) => {
            const trio = await halfOpenTrio(placement.length);
            const trials = placement.map((index) => heldTrial(trio[index] as BreakerInstance));
            await Promise.all(trials.map((trial) => trial.started));
            // Every slot is taken: one more trial, on any instance, is refused.
            await expect(trio[0]?.breaker().execute(ok)).rejects.toBeInstanceOf(CircuitOpenError);
            for (const trial of trials) trial.end();
            expect(await Promise.all(trials.map((trial) => trial.outcome))).toEqual(
              placement.map(() => 'ok'),
            );
            await eventually(
              () => states(trio).every((state) => state === 'closed'),
              REJOIN_WITHIN_MS,
            );
            for (const one of trio) await expect(one.breaker().execute(ok)).resolves.toBe('ok');
          },
        )
        .afterEach(cleanUp),
      { numRuns: 10 },
    );
  });

  it('re-opens every instance when one trial fails, and the others’ later successes do not close it', async () => {
    await fc.assert(
      fc
        .asyncProperty(
          fc
            .integer({ min: 2, max: 5 })
            .chain((slots) =>
              fc.tuple(
                fc.array(fc.integer({ min: 0, max: 2 }), { minLength: slots, maxLength: slots }),
                fc.integer({ min: 0, max: slots - 1 }),
              ),
            ),
          async ([placement, failing]) => {
            const trio = await halfOpenTrio(placement.length);
            const trials = placement.map((index) => heldTrial(trio[index] as BreakerInstance));
            await Promise.all(trials.map((trial) => trial.started));
            trials[failing]?.end(true);
            await eventually(() => trio.every((one) => one.transitions.includes('half_open>open')));
            for (const trial of trials) trial.end();
            await Promise.all(trials.map((trial) => trial.outcome));
            await new Promise((resolve) => setTimeout(resolve, 50));
            for (const one of trio) expect(one.transitions).not.toContain('half_open>closed');
          },
        )
        .afterEach(cleanUp),
      { numRuns: 8 },
    );
  });

  it('frees the slot of an instance that died holding it once its lease has passed', async () => {
    const [a, b, c] = (await halfOpenTrio(2, { trialLeaseMs: 200 })) as [
      BreakerInstance,
      BreakerInstance,
      BreakerInstance,
    ];
    const dying = heldTrial(c); // takes a slot and never ends
    const first = heldTrial(a);
    await Promise.all([dying.started, first.started]);
    first.end();
    expect(await first.outcome).toBe('ok');
    // Both slots are spoken for (one succeeded, one held by c): b is refused.
    await expect(b.breaker().execute(ok)).rejects.toBeInstanceOf(CircuitOpenError);
    expect(states([a, b])).toEqual(['half_open', 'half_open']);

    // c dies: no goodbye, no renewal of its lease.
    c.connection.disconnect();
    c.registry.dispose();
    await c.store.close();

    let admitted = false;
    await eventually(() => {
      if (!admitted)
        void b
          .breaker()
          .execute(ok)
          .then(
            () => (admitted = true),
            () => undefined,
          );
      return a.breaker().state === 'closed' && b.breaker().state === 'closed';
    }, REJOIN_WITHIN_MS);
    expect(admitted).toBe(true);
  });

  it('decides the trials on its own counts while Redis is away', async () => {
    const a = breakerInstance(
      suite,
      'trials-away:',
      {},
      { halfOpenMaxCalls: 2, resetTimeoutMs: 100 },
    );
    await sharing(a);
    await suite.server.kill();
    await eventually(() => a.store.health().status === 'degraded', REJOIN_WITHIN_MS);
    a.breaker().open();
    await eventually(() => a.breaker().state === 'half_open', REJOIN_WITHIN_MS);
    const trials = [heldTrial(a), heldTrial(a)];
    for (const trial of trials) trial.end();
    expect(await Promise.all(trials.map((trial) => trial.outcome))).toEqual(['ok', 'ok']);
    expect(a.breaker().state).toBe('closed');
    await suite.server.restart();
  });
});
