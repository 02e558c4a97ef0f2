import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable, ServiceUnavailableException } from '@nestjs/common';
import type { ToolEvent } from '@toolshield/core/events';
import { Tool } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

@Injectable()
class WeatherTools {
  down = true;

  @Tool({
    description: 'Current weather.',
    breaker: false,
    fallback: {
      on: ['upstream_unavailable'],
      tool: 'cached_weather',
      args: (args) => ({ ...(args as object), stale: true }),
    },
  })
  weather(args: { city: string }) {
    if (this.down) throw new ServiceUnavailableException('weather service down');
    return { city: args.city, tempC: 21 };
  }

  @Tool({ description: 'Last known weather.' })
  cached_weather(args: { city: string; stale: boolean }) {
    return { city: args.city, tempC: 19, stale: args.stale };
  }

  @Tool({
    description: 'Exchange rate.',
    fallback: { on: ['upstream_unavailable'], value: { rate: null } },
  })
  rate() {
    throw new ServiceUnavailableException('rates down');
  }

  @Tool({ description: 'Only falls back on timeouts.', fallback: { on: ['timeout'], value: 0 } })
  strict() {
    throw new ServiceUnavailableException('down');
  }
}

describe('fallback through ToolExecutor', () => {
  let app: Awaited<ReturnType<typeof createToolApp>>;
  afterEach(() => app.close());

  it("returns another tool's result, marked as a fallback, with one terminal event for the call", async () => {
    app = await createToolApp([WeatherTools]);
    const events: ToolEvent[] = [];
    app.executor.events$.subscribe((event) => events.push(event));
    const outcome = await app.executor.execute({
      id: 'w1',
      name: 'weather',
      arguments: { city: 'Paris' },
    });
    expect(outcome).toMatchObject({
      success: true,
      callId: 'w1',
      output: { city: 'Paris', tempC: 19, stale: true },
      metadata: {
        fallback: {
          from: 'cached_weather',
          reason: 'upstream_unavailable',
          error: expect.any(String),
        },
      },
    });
    const terminal = events.filter(
      (event) => event.type === 'call.succeeded' || event.type === 'call.failed',
    );
    expect(terminal.map((event) => [event.type, 'callId' in event && event.callId])).toEqual([
      ['call.succeeded', 'w1:fallback'],
      ['call.succeeded', 'w1'],
    ]);
  });

  it('returns a fixed value, and keeps failures of other types', async () => {
    app = await createToolApp([WeatherTools]);
    expect(await app.executor.execute({ id: 'r', name: 'rate', arguments: {} })).toMatchObject({
      success: true,
      output: { rate: null },
      metadata: { fallback: { from: 'value', reason: 'upstream_unavailable' } },
    });
    expect(await app.executor.execute({ id: 's', name: 'strict', arguments: {} })).toMatchObject({
      success: false,
      errorType: 'upstream_unavailable',
    });
  });
});
