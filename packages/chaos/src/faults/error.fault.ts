import type { ChaosFault, FaultInvocation } from './chaos-fault.js';

/**
 * Rejects with whatever `create` returns (any `ToolError`, a library's own error class, ...),
 * marked as injected. The tool is not called.
 *
 * @example
 * errorFault('quota', () => new LimitExceededError('Monthly quota used up'))
 *
 * @publicApi
 */
export function errorFault(
  name: string,
  create: (invocation: FaultInvocation) => unknown,
): ChaosFault {
  return {
    name,
    inject(invocation) {
      return Promise.reject(invocation.mark(create(invocation)));
    },
  };
}
