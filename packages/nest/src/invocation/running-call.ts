import { AsyncLocalStorage } from 'node:async_hooks';
import type { MutableToolCallContext } from '../execution/tool-call-state.js';

/**
 * The call whose pipeline runs here. Nest hands a tool method only the parameters it declares
 * (a method with `@ToolArgs()` alone never sees the call), so the method handler finds the
 * call it runs the policies for through the async context the invoker opens.
 */
const runningCall = new AsyncLocalStorage<MutableToolCallContext>();

/** Runs `run(...args)` (one call through Nest's pipeline) with `call` as the running call. @internal */
export function runAsCall<A extends unknown[], T>(
  call: MutableToolCallContext,
  run: (...args: A) => T,
  ...args: A
): T {
  return runningCall.run(call, run, ...args);
}

/** The call whose pipeline runs here, if any. @internal */
export function runningCallOf(): MutableToolCallContext | undefined {
  return runningCall.getStore();
}
