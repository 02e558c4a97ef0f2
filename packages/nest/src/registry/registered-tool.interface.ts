import type { ToolCallContext, ToolDefinition } from '@toolshield/core';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';
import type { ToolLane } from '../discovery/tool-invoker.factory.js';
import type { ToolPolicies } from '../policies/tool-policies.js';

/**
 * A tool as the registry holds it: its definition for the model, its options, and the Nest
 * pipeline that runs it.
 *
 * @publicApi
 */
export interface RegisteredTool {
  readonly name: string;
  readonly definition: ToolDefinition;
  readonly options: ToolOptions;
  /** Its resolved policies. @internal */
  readonly policies: ToolPolicies;
  /** `ClassName.methodName`, for messages. */
  readonly source: string;
  /**
   * `'direct'` when nothing but toolshield's policies, validation and failure mapping run
   * around the method; `'nest'` when your guards, interceptors, pipes or filters (or another
   * module's innermost interceptors) make the call go through Nest's pipeline.
   */
  readonly lane: ToolLane;
  /**
   * Runs the call through its lane: resolves to the method's value or a failure envelope, or
   * rejects with what the direct lane's method threw (the executor maps it the same way).
   */
  readonly invoke: (args: unknown, call: ToolCallContext) => Promise<unknown>;
}
