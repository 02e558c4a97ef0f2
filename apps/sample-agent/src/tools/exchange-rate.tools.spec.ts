import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ToolEvent } from '@toolshield/core/events';
import { ToolExecutor } from '@toolshield/nest';
import { createSampleApp } from '../../test/fixtures/sample-app.js';

describe('get_exchange_rate', () => {
  let app: Awaited<ReturnType<typeof createSampleApp>>;
  let executor: ToolExecutor;
  let events: ToolEvent[];
  beforeEach(async () => {
    app = await createSampleApp();
    executor = app.moduleRef.get(ToolExecutor);
    events = [];
    executor.events$.subscribe((event) => events.push(event));
  });
  afterEach(() => app.close());

  it('loses two connections to the simulated upstream and succeeds on the second retry', async () => {
    const outcome = await app.inVirtualTime(
      executor.execute({
        id: 'r1',
        name: 'get_exchange_rate',
        arguments: { from: 'eur', to: 'jpy' },
      }),
    );

    expect(outcome).toMatchObject({
      success: true,
      output: { from: 'EUR', to: 'JPY', rate: 162 },
      metadata: { attempts: 3 },
    });
    expect(events.filter((event) => event.type === 'attempt.failed')).toEqual([
      expect.objectContaining({ attempt: 1, errorType: 'network', message: 'read ECONNRESET' }),
      expect.objectContaining({ attempt: 2, errorType: 'network', message: 'read ECONNRESET' }),
    ]);
    expect(events.filter((event) => event.type === 'retry.scheduled')).toHaveLength(2);
  });

  it('answers an unknown currency with not_found', async () => {
    const outcome = await app.inVirtualTime(
      executor.execute({
        id: 'r2',
        name: 'get_exchange_rate',
        arguments: { from: 'EUR', to: 'XYZ' },
      }),
    );
    expect(outcome).toMatchObject({
      success: false,
      errorType: 'not_found',
      error: 'No rate for currency "XYZ".',
    });
  });
});
