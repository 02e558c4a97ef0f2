import { setImmediate as tick } from 'node:timers/promises';

const gc = (globalThis as { gc?: () => void }).gc;

/** Heap used after forced garbage collection (needs `node --expose-gc`). */
export async function settledHeap(): Promise<number> {
  if (!gc) throw new Error('Run with node --expose-gc');
  for (let i = 0; i < 4; i++) {
    gc();
    await tick();
  }
  return process.memoryUsage().heapUsed;
}
