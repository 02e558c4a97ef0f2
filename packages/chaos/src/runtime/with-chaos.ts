import type { ToolCallContext } from '@toolshield/core';
import type { ChaosRule } from '../selection/chaos-rule.js';
import { ChaosController, type ChaosControllerOptions } from './chaos-controller.js';
import { injectChaos } from './inject-chaos.js';

/** @publicApi */
export interface WithChaosOptions extends ChaosControllerOptions {
  /**
   * The tool name rules match against when a call's context names none (default: the
   * function's name). Only this option applies when a controller is passed instead of rules.
   */
  readonly toolName?: string;
}

/**
 * A function wrapped by {@link withChaos}; `chaos` is its controller (enable it, change
 * rules, read counters).
 *
 * Malformed-output faults resolve with values that are *not* a `TOutput` on purpose.
 *
 * @publicApi
 */
export type ChaosWrapped<TArgs, TOutput> = ((
  args: TArgs,
  context?: Partial<ToolCallContext>,
) => Promise<TOutput>) & { readonly chaos: ChaosController };

/**
 * Wraps any async function `(args, context?) => Promise<T>` so calls go through chaos
 * outside Nest. Give it rules (a controller is created from `options`, **disabled unless
 * `options.enabled` is `true`**) or an existing controller (shared with other wrappers).
 *
 * A missing or partial context is completed: `callId` `<tool>-<n>`, `attempt` 1, a signal
 * that never aborts, empty metadata. Pass a real `signal` to let timeouts end latency and
 * hangs.
 *
 * @example
 * const search = withChaos(rawSearch, [{ fault: rateLimit(), everyNth: 3 }], { enabled: true, seed: 1 });
 *
 * @publicApi
 */
export function withChaos<TArgs, TOutput>(
  fn: (args: TArgs, context: ToolCallContext) => Promise<TOutput>,
  rulesOrController: readonly ChaosRule[] | ChaosController,
  options: WithChaosOptions = {},
): ChaosWrapped<TArgs, TOutput> {
  const { toolName, ...controllerOptions } = options;
  const controller =
    rulesOrController instanceof ChaosController
      ? rulesOrController
      : new ChaosController({ ...controllerOptions, rules: rulesOrController });
  const defaultToolName = toolName ?? (fn.name || 'anonymous');
  let calls = 0;
  const wrapped = (args: TArgs, partial: Partial<ToolCallContext> = {}): Promise<TOutput> => {
    const toolName = partial.toolName ?? defaultToolName;
    const context: ToolCallContext = {
      callId: partial.callId ?? `${toolName}-${++calls}`,
      toolName,
      attempt: partial.attempt ?? 1,
      signal: partial.signal ?? new AbortController().signal,
      metadata: partial.metadata ?? {},
    };
    return injectChaos(controller, toolName, context, () => fn(args, context)) as Promise<TOutput>;
  };
  return Object.assign(wrapped, { chaos: controller });
}
