import type { MutableToolCallContext, ToolCallState } from '../../execution/tool-call-state.js';
import type { ToolPolicyLayer } from './tool-policy-layer.js';

/**
 * One attempt of the tool itself (and whatever sits between the policies and it), run with
 * the context the tool should see: the call's own, or a hedged attempt's.
 *
 * @internal
 */
export type AttemptRun = (call: MutableToolCallContext) => Promise<unknown>;

/**
 * A tool's policy layers stacked once, outermost first: runs `attempt` inside every layer.
 * Each layer may run its inner part several times (retry) or not at all (an open breaker).
 *
 * @internal
 */
export type PolicyChain = (
  attempt: AttemptRun,
  call: MutableToolCallContext,
  state: ToolCallState,
) => Promise<unknown>;

/** The end of every chain: one attempt with the call's own context. */
const runAttempt: PolicyChain = (attempt, call) => attempt(call);

/**
 * Stacks `layers` (outermost first) into one {@link PolicyChain} around `innermost`, what
 * runs each attempt (hedging, when the tool hedges; the attempt itself otherwise).
 *
 * @internal
 */
export function chainPolicyLayers(
  layers: readonly ToolPolicyLayer[],
  innermost: PolicyChain = runAttempt,
): PolicyChain {
  return layers.reduceRight<PolicyChain>(
    (inner, layer) => (attempt, call, state) =>
      layer.run(() => inner(attempt, call, state), call, state),
    innermost,
  );
}
