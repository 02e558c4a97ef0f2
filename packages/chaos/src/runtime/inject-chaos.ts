import type { ToolCallContext } from '@toolshield/core';
import type { ChaosController, SelectedFault } from './chaos-controller.js';

/**
 * Runs one tool call through the faults `controller` selects for it, in rule order (the
 * first rule's fault outermost), ending in `next` (the real tool) unless a fault replaces
 * it. With chaos disabled or nothing selected it is exactly `next()`.
 *
 * The one entry point for every injector: `withChaos` and the Nest chaos interceptor call
 * it with the tool's name and the attempt's {@link ToolCallContext}.
 *
 * @publicApi
 */
export function injectChaos(
  controller: ChaosController,
  toolName: string,
  context: ToolCallContext,
  next: () => Promise<unknown>,
): Promise<unknown> {
  const selected = controller.select(toolName, context);
  return selected.length === 0 ? next() : runChain(selected, 0, next);
}

async function runChain(
  selected: readonly SelectedFault[],
  index: number,
  next: () => Promise<unknown>,
): Promise<unknown> {
  const current = selected[index];
  if (current === undefined) return next();
  current.begin();
  return current.fault.inject(current.invocation, () => runChain(selected, index + 1, next));
}
