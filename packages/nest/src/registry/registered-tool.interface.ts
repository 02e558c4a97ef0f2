import type { ToolCallContext, ToolDefinition } from '@toolshield/core';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';
import type { ToolPolicies } from '../policies/tool-policies.interface.js';

/**
 * How a tool's calls run: `'nest'` through the pipeline Nest builds with
 * `ExternalContextCreator` (guards, interceptors, pipes, filters), `'direct'` through
 * toolshield's own policies, validation and failure mapping alone, when the tool has no
 * enhancer of yours to run.
 *
 * @publicApi
 */
export type ToolLane = 'nest' | 'direct';

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
