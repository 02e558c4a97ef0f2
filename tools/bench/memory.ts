/**
 * Heap cost of registered tools, measured in a fresh process started with --expose-gc:
 * `node --expose-gc memory.js <count>` prints JSON with the heap used (after forced GC) before
 * the application exists, after bootstrap (tools registered, no breaker yet) and after one
 * call per tool (each tool's breaker created). run.js compares two counts to cancel out the
 * application's fixed cost.
 */
import { NestFactory } from '@nestjs/core';
import { ToolCircuitBreakers, ToolExecutor } from '@toolshield/nest';
import { manyToolsModule } from './fixtures.js';
import { settledHeap } from './settled-heap.js';

export { settledHeap };

export interface MemorySample {
  readonly tools: number;
  readonly before: number;
  readonly registered: number;
  readonly withBreakers: number;
  readonly breakers: number;
}

async function measure(count: number): Promise<MemorySample> {
  const json = JSON.stringify({ city: 'Paris' });
  const before = await settledHeap();
  const app = await NestFactory.createApplicationContext(manyToolsModule(count), { logger: false });
  await app.init();
  const registered = await settledHeap();
  const executor = app.get(ToolExecutor);
  for (let i = 0; i < count; i++) {
    const outcome = await executor.execute({ id: `call_${i}`, name: `tool_${i}`, arguments: json });
    if (!outcome.success) throw new Error(`tool_${i} failed: ${JSON.stringify(outcome)}`);
  }
  const withBreakers = await settledHeap();
  const breakers = app.get(ToolCircuitBreakers).states().length;
  await app.close();
  return { tools: count, before, registered, withBreakers, breakers };
}

const count = Number(process.argv[2]);
if (Number.isInteger(count) && count > 0) {
  process.stdout.write(`${JSON.stringify(await measure(count))}\n`);
}
