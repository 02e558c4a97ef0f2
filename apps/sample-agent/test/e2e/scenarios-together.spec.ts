import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { summariseRun } from '../../src/demo/run-summary.js';
import type { RunEvent } from '../../src/runs/run-event.js';
import { SCENARIOS } from '../../src/scenarios/index.js';
import { readEventStream } from '../fixtures/sse-client.js';
import { startTestServer } from '../fixtures/test-server.js';

// Real time: the upstream's Retry-After, slow answers and the outage's breaker take seconds (a
// few rounds; more only when a busy machine slows one, see slowedByLoad).
jest.setTimeout(90_000);

/** How a run ended, its breaker openings and its failed attempts by type. */
interface Outcome {
  readonly status: string;
  readonly breakerOpenings: number;
  readonly failures: Readonly<Record<string, number>>;
}

/** Each scenario's outcome as the README's table documents it: how it ends, what failed. */
const DOCUMENTED: Readonly<Record<string, Outcome>> = {
  trip: { status: 'completed', breakerOpenings: 0, failures: { network: 2, not_found: 1 } },
  'web-research': {
    status: 'completed',
    breakerOpenings: 0,
    failures: { rate_limited: 1, network: 1, upstream_unavailable: 1 },
  },
  'slow-web': {
    status: 'completed',
    breakerOpenings: 0,
    failures: { timeout: 1, upstream_unavailable: 2 },
  },
  'kube-missing-namespace': { status: 'completed', breakerOpenings: 0, failures: { not_found: 1 } },
  'kube-deploy-forbidden': {
    status: 'stopped',
    breakerOpenings: 0,
    failures: { permission_denied: 1 },
  },
  'read-file': {
    status: 'completed',
    breakerOpenings: 0,
    failures: { permission_denied: 1, not_found: 1 },
  },
  calculator: { status: 'completed', breakerOpenings: 0, failures: { invalid_input: 1 } },
  'ask-user': { status: 'completed', breakerOpenings: 0, failures: {} },
  outage: {
    status: 'completed',
    breakerOpenings: 1,
    failures: { upstream_unavailable: 6, circuit_open: 2 },
  },
  'searches-20': { status: 'completed', breakerOpenings: 0, failures: {} },
  'pay-invoice': { status: 'completed', breakerOpenings: 0, failures: {} },
  'stale-search': {
    status: 'completed',
    breakerOpenings: 0,
    failures: { upstream_unavailable: 6 },
  },
  // Approved by the test as soon as it waits (a person clicking Approve).
  'pay-large-invoice': { status: 'completed', breakerOpenings: 0, failures: {} },
};

/**
 * Whether a busy machine slowed the round: a scenario met more timeouts than it stages. The
 * service, the upstream and this client share one event loop, and an attempt answered in time
 * times out (1 s) when the process waits too long for the CPU; nothing else adds a timeout.
 */
function slowedByLoad(outcomes: readonly (readonly [string, Outcome])[]): boolean {
  return outcomes.some(
    ([name, { failures }]) =>
      (failures['timeout'] ?? 0) > (DOCUMENTED[name]?.failures['timeout'] ?? 0),
  );
}

/** How many times a round a busy machine slowed is run again before its outcomes count anyway. */
const ROUNDS_SLOWED_BY_LOAD = 2;

describe('scenarios started together', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => (server = await startTestServer()));
  afterAll(() => server.close());

  /**
   * Starts `names` at once (one run each) and reads each run's events to its end; a round a
   * busy machine slowed is run again (the state it left stays), its outcomes say nothing.
   */
  async function runTogether(names: readonly string[]) {
    for (let again = 0; ; again++) {
      const outcomes = await startTogether(names);
      if (again === ROUNDS_SLOWED_BY_LOAD || !slowedByLoad(outcomes)) return outcomes;
    }
  }

  async function startTogether(names: readonly string[]): Promise<(readonly [string, Outcome])[]> {
    const started = await Promise.all(
      names.map((scenario) =>
        server.request('POST', '/api/runs', { task: 'Do the scenario.', scenario }),
      ),
    );
    return Promise.all(
      started.map(async ({ body }, index) => {
        const stream = await readEventStream(`${server.baseUrl}/api/runs/${body.id}/events`, {
          onEvent: ({ data }) => void approveWaitingCalls(JSON.parse(data) as RunEvent),
        });
        const events = stream.events.map((event) => JSON.parse(event.data) as RunEvent);
        const { status, breakerOpenings, failures } = summariseRun(names[index] ?? '', events);
        return [names[index] ?? '', { status, breakerOpenings, failures }] as const;
      }),
    );
  }

  /** A person approving every call a run waits for, as soon as it waits. */
  async function approveWaitingCalls({ data }: RunEvent): Promise<void> {
    if (data.type !== 'run.awaiting_approval') return;
    for (const { id } of data.approvals) {
      await server.request('POST', `/api/approvals/${id}`, { decision: 'approve' });
    }
  }

  it('documents every scenario the service knows', () => {
    expect(Object.keys(DOCUMENTED).sort()).toEqual([...SCENARIOS.keys()].sort());
  });

  it('ends each scenario as documented, all started at once, twice on the same service', async () => {
    const names = Object.keys(DOCUMENTED);
    const first = Object.fromEntries(await runTogether(names));
    // The second round meets whatever the first left: notes, namespaces, breakers, plans.
    const second = Object.fromEntries(await runTogether(names));
    expect({ first, second }).toEqual({ first: DOCUMENTED, second: DOCUMENTED });
  });

  it('ends the same with two runs of each scenario at once as with one', async () => {
    const names = ['outage', 'trip', 'kube-missing-namespace', 'web-research', 'slow-web'] as const;
    const outcomes = await runTogether([...names, ...names]);
    expect(outcomes).toEqual([...names, ...names].map((name) => [name, DOCUMENTED[name]]));
  });
});
