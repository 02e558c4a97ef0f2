import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';

/**
 * The rest of the pipeline, inside a layer: one run of it is one attempt of what lies within.
 * Built once per tool, and given the call each time, so running a call through the layers
 * makes no closure per layer. @internal
 */
export type InnerRun = (call: MutableToolCallContext, state: ToolCallState) => Promise<unknown>;

/**
 * One policy of a tool's pipeline (retry, circuit breaker, timeout, bulkhead), as a promise
 * middleware. A tool's method handler runs its layers, stacked once in the configured order,
 * around the method.
 *
 * @internal
 */
export interface ToolPolicyLayer {
  run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown>;
}
