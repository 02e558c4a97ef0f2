import { inspect } from 'node:util';
import { type Clock, type ToolCallContext } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import type { ChaosFault } from '../src/faults/chaos-fault.js';
import { ChaosController } from '../src/runtime/chaos-controller.js';
import { injectChaos } from '../src/runtime/inject-chaos.js';

/** What running one fault once produced. */
export interface FaultRun {
  /** The call's promise, settled or not. */
  readonly promise: Promise<unknown>;
  /** How many times the tool itself ran. */
  toolCalls(): number;
}

/** Runs `fault` once through a fresh enabled controller, the way every injector does. */
export function runFault(
  fault: ChaosFault,
  options: { output?: unknown; clock?: Clock; context?: Partial<ToolCallContext> } = {},
): FaultRun {
  const controller = new ChaosController({
    seed: 1,
    enabled: true,
    clock: options.clock ?? new VirtualClock(),
    rules: [{ name: 'under-test', fault }],
    env: {},
  });
  const context: ToolCallContext = {
    callId: 'call-1',
    toolName: 'tool',
    attempt: 1,
    signal: new AbortController().signal,
    metadata: {},
    ...options.context,
  };
  let calls = 0;
  const promise = injectChaos(controller, context.toolName, context, () => {
    calls++;
    return Promise.resolve(options.output);
  });
  return { promise, toolCalls: () => calls };
}

/** The rejection of `promise` (fails the test when it resolves). */
export function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, but the call resolved with ${inspect(value)}`);
    },
    (error: unknown) => error,
  );
}
