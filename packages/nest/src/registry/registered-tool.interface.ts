import type { ToolCallContext, ToolDefinition } from '@toolshield/core';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';
import type { ToolPolicies } from '../policies/tool-policies.interface.js';

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
   * Runs the call through Nest's pipeline for the method (guards, interceptors, pipes, the
   * policies, filters): resolves to the method's value or a failure envelope.
   */
  readonly invoke: (args: unknown, call: ToolCallContext) => Promise<unknown>;
}
