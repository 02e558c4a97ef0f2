import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';

/**
 * The rest of the pipeline, inside a layer: one run of it is one attempt of what lies within.
 * Built once per tool, and given the call each time, so running a call through the layers
 * makes no closure per layer. @internal
 */
export type InnerRun = (call: MutableToolCallContext, state: ToolCallState) => Promise<unknown>;

/**
 * One policy of a tool's pipeline (retry, circuit breaker, timeout, bulkhead), as a promise
 * middleware. The `ToolPolicyInterceptor` of a tool stacks its layers in the configured order,
 * so a tool pays for one Nest interceptor however many policies it has.
 *
 * @internal
 */
export interface ToolPolicyLayer {
  run(inner: InnerRun, call: MutableToolCallContext, state: ToolCallState): Promise<unknown>;
}
