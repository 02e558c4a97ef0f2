import { describe, expect, it } from '@jest/globals';
import { VirtualClock } from '@toolshield/core/testing';
import { ChaosController } from '../runtime/chaos-controller.js';
import { withChaos } from '../runtime/with-chaos.js';
import { failFirst } from './fail-first.fault.js';
import { upstreamError } from './upstream-error.fault.js';

const settle = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: { code?: string; status?: number }) => String(error.status ?? error.code),
  );

describe('failFirst', () => {
  it('fails the first N calls of each tool with ECONNRESET, then lets every call through', async () => {
    const chaos = new ChaosController({
      seed: 1,
      enabled: true,
      env: {},
      clock: new VirtualClock(),
    });
    chaos.addRule({ fault: failFirst(2) });
    const search = withChaos(async () => 'found', chaos, { toolName: 'search' });
    const fetchPage = withChaos(async () => 'page', chaos, { toolName: 'fetch_page' });

    const outcomes = [];
    for (let call = 0; call < 4; call++) outcomes.push(await settle(search({})));
    outcomes.push(await settle(fetchPage({})));

    expect(outcomes).toEqual(['ECONNRESET', 'ECONNRESET', 'ok', 'ok', 'ECONNRESET']);
    expect(chaos.counters()).toMatchObject({
      calls: 5,
      injections: 3,
      byFault: { 'network:ECONNRESET': 3 },
    });
  });

  it('per attempt: every call fails its first N attempts and succeeds on the next', async () => {
    const tool = withChaos(
      async () => 'done',
      [{ fault: failFirst(2, { per: 'attempt', fault: upstreamError() }) }],
      {
        enabled: true,
        env: {},
        seed: 1,
      },
    );
    const attempts = async () => {
      const seen = [];
      for (let attempt = 1; attempt <= 3; attempt++) seen.push(await settle(tool({}, { attempt })));
      return seen;
    };
    expect(await attempts()).toEqual(['503', '503', 'ok']);
    expect(await attempts()).toEqual(['503', '503', 'ok']);
  });

  it('refuses a negative count', () => {
    expect(() => failFirst(-1)).toThrow(RangeError);
  });
});
