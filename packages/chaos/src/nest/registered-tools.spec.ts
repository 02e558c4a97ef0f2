import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { type ToolFailure } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { ToolExecutor, ToolRegistrar, ToolShieldModule } from '@toolshield/nest';
import { networkError } from '../faults/network-error.fault.js';
import { ChaosModule } from './chaos.module.js';

@Injectable()
class RemoteTools implements OnModuleInit {
  constructor(private readonly registrar: ToolRegistrar) {}

  onModuleInit(): void {
    this.registrar.register({
      name: 'remote__lookup',
      description: 'A tool registered in code.',
      handler: () => 'found',
    });
  }
}

let moduleRef: TestingModule | undefined;
afterEach(async () => {
  await moduleRef?.close();
  moduleRef = undefined;
});

describe('ChaosModule with tools registered in code', () => {
  it('injects into them by glob, at bootstrap and at run time, through the same pipeline', async () => {
    const clock = new VirtualClock();
    moduleRef = await Test.createTestingModule({
      imports: [
        ToolShieldModule.forRoot({ clock }),
        ChaosModule.forRoot({
          env: { NODE_ENV: 'test' },
          enabled: true,
          rules: [{ name: 'drop', tools: 'remote__*', fault: networkError('ECONNRESET') }],
        }),
      ],
      providers: [RemoteTools],
    }).compile();
    moduleRef.useLogger(false);
    Logger.overrideLogger(false);
    await moduleRef.init();
    moduleRef.get(ToolRegistrar).register({
      name: 'remote__late',
      description: 'Registered after bootstrap.',
      handler: () => 'found',
    });
    const executor = moduleRef.get(ToolExecutor);
    for (const name of ['remote__lookup', 'remote__late']) {
      const failure = (await executor.execute({ name, arguments: {} })) as ToolFailure;
      expect(failure).toMatchObject({ errorType: 'network', metadata: { chaos: true } });
    }
  });
});
