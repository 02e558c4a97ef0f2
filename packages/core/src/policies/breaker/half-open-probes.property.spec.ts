import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { VirtualClock } from '../../clock/virtual-clock.js';
import { UpstreamUnavailableError } from '../../errors/upstream-unavailable.error.js';
import { composePolicies } from '../compose.js';
import { ToolCircuitBreaker } from './circuit-breaker.js';

const MAX_PROBES = 3;
const TIMEOUT_MS = 1_000;
/** Longer than an attempt may last, so no probe of an earlier half-open period is still live. */
const RESET_MS = 2_000;

type Command =
  | { readonly kind: 'start' }
  | { readonly kind: 'abort'; readonly probe: number }
  | { readonly kind: 'settle'; readonly probe: number; readonly ok: boolean }
  | { readonly kind: 'advance'; readonly ms: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  { arbitrary: fc.constant<Command>({ kind: 'start' }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('abort' as const), probe: fc.nat(8) }), weight: 2 },
  {
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      probe: fc.nat(8),
      ok: fc.boolean(),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.integer({ min: 1, max: 1_500 }),
    }),
    weight: 1,
  },
);

/** A tool body that ignores its signal and settles only when the test says so. */
interface Body {
  readonly startedAt: number;
  readonly probe: boolean;
  running: boolean;
  settle(ok: boolean): void;
}

describe('half-open trial slots with aborting callers (property)', () => {
  it('never runs more probes at once than halfOpenMaxCalls, and closes once the upstream recovers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { maxLength: 40 }), async (commands) => {
        const clock = new VirtualClock();
        const breaker = new ToolCircuitBreaker(
          { halfOpenMaxCalls: MAX_PROBES, resetTimeoutMs: RESET_MS, volumeThreshold: 1 },
          { tool: 'upstream', clock },
        );
        const run = composePolicies({ breaker, timeoutMs: TIMEOUT_MS, clock });
        const bodies: Body[] = [];
        const callers: AbortController[] = [];
        let mostLive = 0;
        /** Probe bodies still running within their attempt's deadline. */
        const liveProbes = () =>
          bodies.filter(
            (body) => body.probe && body.running && clock.now() < body.startedAt + TIMEOUT_MS,
          ).length;
        const start = () => {
          const caller = new AbortController();
          callers.push(caller);
          void run(
            () =>
              new Promise<string>((resolve, reject) => {
                const body: Body = {
                  startedAt: clock.now(),
                  probe: breaker.state === 'half_open',
                  running: true,
                  settle: (ok) => {
                    body.running = false;
                    if (ok) resolve('ok');
                    else reject(new UpstreamUnavailableError('still down'));
                  },
                };
                bodies.push(body);
                mostLive = Math.max(mostLive, liveProbes());
              }),
            caller.signal,
          );
        };

        breaker.open();
        await clock.advanceBy(RESET_MS);
        for (const step of commands) {
          if (step.kind === 'start') start();
          else if (step.kind === 'abort') callers[step.probe]?.abort();
          else if (step.kind === 'settle') {
            const body = bodies[step.probe];
            if (body?.running) body.settle(step.ok);
          } else await clock.advanceBy(step.ms);
          await clock.advanceBy(0);
        }
        expect(mostLive).toBeLessThanOrEqual(MAX_PROBES);

        // The upstream recovers: whatever still runs succeeds, and callers stop aborting.
        for (const body of bodies) if (body.running) body.settle(true);
        for (let round = 0; round < 10 && breaker.state !== 'closed'; round++) {
          await clock.advanceBy(RESET_MS);
          for (let i = 0; i < MAX_PROBES; i++) start();
          for (const body of bodies) if (body.running) body.settle(true);
          await clock.advanceBy(0);
        }
        expect(mostLive).toBeLessThanOrEqual(MAX_PROBES);
        expect(breaker.state).toBe('closed');
        breaker.dispose();
        await clock.runAll();
      }),
      { numRuns: 150 },
    );
  });
});
