import type { ArgumentsHost } from '@nestjs/common';
import type { ToolCallContext } from '@toolshield/core';
import { TOOL_CONTEXT_TYPE } from '../toolshield.constants.js';

/**
 * A typed view of an `ExecutionContext`/`ArgumentsHost` for enhancers that serve tools, as
 * `GqlExecutionContext` is for GraphQL.
 *
 * @example
 * ```ts
 * canActivate(context: ExecutionContext) {
 *   if (!ToolExecutionContext.isTool(context)) return true;
 *   const { toolName } = ToolExecutionContext.create(context).getCall();
 *   return this.allowed.has(toolName);
 * }
 * ```
 * @publicApi
 */
export class ToolExecutionContext {
  private constructor(private readonly host: ArgumentsHost) {}

  static create(host: ArgumentsHost): ToolExecutionContext {
    return new ToolExecutionContext(host);
  }

  /** Whether `host` is a tool call (rather than HTTP, RPC, ...). */
  static isTool(host: ArgumentsHost): boolean {
    return host.getType<string>() === TOOL_CONTEXT_TYPE;
  }

  /** The parsed (not yet validated, in guards) arguments. */
  getArgs<T = unknown>(): T {
    return this.host.getArgByIndex<T>(0);
  }

  /** The call: id, tool name, attempt, signal, metadata. */
  getCall(): ToolCallContext {
    return this.host.getArgByIndex<ToolCallContext>(1);
  }
}
