import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';
import type { InnerRun, ToolPolicyLayer } from './tool-policy-layer.js';

/**
 * A tool's policy layers stacked once, outermost first: runs `attempt` (the tool itself, and
 * whatever sits between the policies and it) inside every layer. Each layer may run its inner
 * part several times (retry) or not at all (an open breaker).
 *
 * @internal
 */
export type PolicyChain = (
  attempt: InnerRun,
  call: MutableToolCallContext,
  state: ToolCallState,
) => Promise<unknown>;

/** Stacks `layers` (outermost first) into one {@link PolicyChain}. @internal */
export function chainPolicyLayers(layers: readonly ToolPolicyLayer[]): PolicyChain {
  return layers.reduceRight<PolicyChain>(
    (inner, layer) => (attempt, call, state) =>
      layer.run(() => inner(attempt, call, state), call, state),
    (attempt) => attempt(),
  );
}
