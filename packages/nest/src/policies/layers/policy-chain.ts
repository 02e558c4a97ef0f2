import type { InnerRun, ToolPolicyLayer } from './tool-policy-layer.js';

/**
 * A tool's policy layers stacked once, outermost first, around its attempt (the tool itself,
 * and whatever sits between the policies and it). Each layer may run its inner part several
 * times (retry) or not at all (an open breaker).
 *
 * @internal
 */
export type PolicyChain = InnerRun;

/** Stacks `layers` (outermost first) around `attempt`, once per tool. @internal */
export function chainPolicyLayers(
  layers: readonly ToolPolicyLayer[],
  attempt: InnerRun,
): PolicyChain {
  return layers.reduceRight<InnerRun>(
    (inner, layer) => (call, state) => layer.run(inner, call, state),
    attempt,
  );
}
