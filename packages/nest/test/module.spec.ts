import { describe, expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { VirtualClock } from '@toolshield/core/testing';
import { TOOLSHIELD_CLOCK, Tool, ToolExecutor, ToolShieldModule } from '../src/index.js';

@Injectable()
class EchoTools {
  @Tool({ name: 'echo', description: 'Returns its arguments.', inputSchema: { type: 'object' } })
  echo() {
    return 'echo';
  }
}

@Injectable()
class ClockConfig {
  readonly clock = new VirtualClock({ startMs: 1_000 });
}

@Module({ providers: [ClockConfig], exports: [ClockConfig] })
class ConfigModule {}

/** A feature module that injects the executor without importing ToolShieldModule itself. */
@Module({ providers: [EchoTools] })
class FeatureModule {}

describe('ToolShieldModule', () => {
  it('forRootAsync takes its options from a factory with injected dependencies', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ToolShieldModule.forRootAsync({
          imports: [ConfigModule],
          inject: [ClockConfig],
          useFactory: (config: ClockConfig) => ({ clock: config.clock }),
        }),
      ],
      providers: [EchoTools],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    expect(moduleRef.get(TOOLSHIELD_CLOCK).now()).toBe(1_000);
    await expect(moduleRef.get(ToolExecutor).execute({ name: 'echo' })).resolves.toMatchObject({
      success: true,
      output: 'echo',
    });
    await moduleRef.close();
  });

  it('isGlobal makes the executor and the tools of every module visible', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolShieldModule.forRoot({ isGlobal: true }), FeatureModule],
    }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    const executor = moduleRef.select(FeatureModule).get(ToolExecutor);
    await expect(executor.execute({ name: 'echo' })).resolves.toMatchObject({ success: true });
    await moduleRef.close();
  });
});
