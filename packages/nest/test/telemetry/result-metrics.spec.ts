import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable, Logger } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { VirtualClock } from '@toolshield/core/testing';
import { Tool, ToolExecutor, ToolShieldModule } from '../../src/index.js';
import { ToolShieldTelemetryModule } from '../../src/telemetry/index.js';
import { FakeMeterProvider } from './fake-otel.js';

@Injectable()
class ReadTools {
  @Tool({
    description: 'Searches.',
    idempotent: true,
    annotations: { readOnlyHint: true },
    cache: { ttlMs: 60_000 },
  })
  async search() {
    await Promise.resolve();
    return { hits: ['a'] };
  }

  @Tool({ description: 'A long log.', output: { maxBytes: 1_024 } })
  log() {
    return 'x'.repeat(5_000);
  }
}

describe('the result metrics of @toolshield/nest/telemetry', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  it('counts cache lookups by result (single-flight joins included) and cut outputs', async () => {
    const metering = new FakeMeterProvider();
    const moduleRef = await Test.createTestingModule({
      imports: [
        ToolShieldModule.forRoot({ isGlobal: true, clock: new VirtualClock() }),
        ToolShieldTelemetryModule.forRoot({ meterProvider: metering }),
      ],
      providers: [ReadTools],
    }).compile();
    moduleRef.useLogger(false);
    Logger.overrideLogger(false);
    await moduleRef.init();
    close = () => moduleRef.close();
    const executor = moduleRef.get(ToolExecutor);
    const search = (id: string) => executor.execute({ id, name: 'search', arguments: {} });
    await Promise.all([search('1'), search('2'), search('3')]);
    await search('4');
    await executor.execute({ id: '5', name: 'log', arguments: {} });

    const lookups = metering
      .of('toolshield.cache.lookups')
      .map((m) => [m.attributes?.['toolshield.cache.result'], m.value]);
    expect(Object.fromEntries(lookups)).toEqual({ miss: 1, joined: 2, hit: 1 });
    expect(metering.of('toolshield.output.cuts').map((m) => m.value)).toEqual([1]);
  });
});
