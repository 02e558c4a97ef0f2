import { describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { ToolExecutor } from '@toolshield/nest';
import { AppModule } from '../app.module.js';

describe('sample agent tools', () => {
  it('serves get_weather through the executor, and fails well for unknown cities', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    moduleRef.useLogger(false);
    await moduleRef.init();
    const executor = moduleRef.get(ToolExecutor);

    await expect(
      executor.execute({ id: '1', name: 'get_weather', arguments: '{"city":"Oslo"}' }),
    ).resolves.toMatchObject({
      success: true,
      output: { city: 'Oslo', temperature: '4°C', sky: 'overcast' },
    });
    await expect(
      executor.execute({ id: '2', name: 'get_weather', arguments: '{"city":"Atlantis"}' }),
    ).resolves.toMatchObject({
      success: false,
      errorType: 'not_found',
      recoverable: false,
    });
    await moduleRef.close();
  });
});
