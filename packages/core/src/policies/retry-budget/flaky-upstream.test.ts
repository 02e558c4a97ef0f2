import { VirtualClock } from '../../clock/virtual-clock.js';
import type { ToolOutcome } from '../../results/tool-outcome.js';
import type { ShieldOptions } from '../../shield/shield-options.js';
import { shieldTool } from '../../shield/shield-tool.js';

/** A uniform source on [0, 1) from `seed` (mulberry32); specs draw the seed from fast-check. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the callers and the upstream saw. */
export interface Load {
  readonly calls: number;
  readonly successes: number;
  /** Attempts that reached the upstream. */
  readonly requests: number;
  /** Calls that ended because the budget withheld a retry. */
  readonly withheld: number;
  /** Calls refused by an open breaker without reaching the upstream. */
  readonly refused: number;
}

/**
 * A default idempotent tool (3 retries, as the bench) in front of an upstream whose
 * attempts fail with ECONNRESET with probability `failureRate`, answering at once; `options`
 * are merged over those (pass `breaker: false` to leave the breaker out).
 */
export function flakyTool(
  failureRate: number,
  random: () => number,
  options: Partial<ShieldOptions> = {},
  clock = new VirtualClock({ maxTimersPerRun: 1_000_000 }),
) {
  const received = { requests: 0 };
  const tool = shieldTool(
    () => {
      received.requests++;
      if (random() < failureRate)
        throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
      return 'ok';
    },
    {
      name: 'web_search',
      idempotent: true,
      clock,
      ...options,
      retry: { maxRetries: 3, ...options.retry },
    },
  );
  return { tool, received, clock };
}

/**
 * `callers` callers starting at once, each making `callsEach` calls one after the other,
 * run to their end in virtual time.
 */
export async function drive(
  { tool, received, clock }: ReturnType<typeof flakyTool>,
  callers: number,
  callsEach: number,
): Promise<Load> {
  const before = received.requests;
  const outcomes: ToolOutcome<unknown>[] = [];
  const caller = async () => {
    for (let call = 0; call < callsEach; call++) outcomes.push(await tool({}));
  };
  await clock.runUntilSettled(Promise.all(Array.from({ length: callers }, caller)));
  const failures = outcomes.filter((outcome) => !outcome.success);
  return {
    calls: outcomes.length,
    successes: outcomes.length - failures.length,
    requests: received.requests - before,
    withheld: failures.filter((failure) => failure.metadata.retriesWithheld === true).length,
    refused: failures.filter((failure) => failure.errorType === 'circuit_open').length,
  };
}
