import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { SystemClock } from '@toolshield/core/internal';
import { ToolExecutor, ToolShieldModule } from '../../src/index.js';
import { ToolShieldTelemetryModule } from '../../src/telemetry/index.js';
import { FakeTracerProvider } from '../telemetry/fake-otel.js';
import { leaksOf } from './leak-check.js';
import { LeakyTools } from './leaky.tools.js';
import { SECRET_SAMPLES } from './secret-samples.js';
import { THROW_WAYS } from './throw-ways.js';

describe('telemetry spans carry no secret', () => {
  const tracing = new FakeTracerProvider();
  let moduleRef: TestingModule;

  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [
        ToolShieldModule.forRoot({ isGlobal: true, clock: new SystemClock() }),
        ToolShieldTelemetryModule.forRoot({ tracerProvider: tracing }),
      ],
      providers: [LeakyTools],
    }).compile();
    moduleRef.useLogger(false);
    Logger.overrideLogger(false);
    await moduleRef.init();
  });
  afterAll(() => moduleRef.close());

  it('in names, attributes, statuses or span events, however the secret was thrown', async () => {
    const tools = moduleRef.get(LeakyTools);
    const executor = moduleRef.get(ToolExecutor);
    const leaks: string[] = [];
    for (const { way, make } of THROW_WAYS.slice(0, 3)) {
      for (const { family, secret, text } of SECRET_SAMPLES) {
        tracing.spans.length = 0;
        tools.next = () => make(text, secret);
        await executor.execute({ id: 'call_span', name: 'leaky', arguments: '{}' });
        const spans = Object.fromEntries(
          tracing.spans.map((span, i) => [
            `span ${i}`,
            JSON.stringify({
              attributes: span.attributes,
              status: span.status,
              events: span.events,
            }),
          ]),
        );
        expect(Object.keys(spans).length).toBeGreaterThan(1);
        leaks.push(...leaksOf(secret, spans).map((leak) => `${way} / ${family} → ${leak}`));
      }
    }
    expect(leaks).toEqual([]);
  }, 60_000);
});
