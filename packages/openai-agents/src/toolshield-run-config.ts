import { renderFailureText } from '@toolshield/core';
import {
  ToolNotFoundError,
  createToolFailure,
  declinedFailure,
  suggestToolNames,
} from '@toolshield/core/internal';
import type { RunConfig } from '@openai/agents';

/** The part of a `RunConfig` that {@link toolshieldRunConfig} sets. @publicApi */
export type ToolshieldRunConfig = Required<
  Pick<RunConfig, 'toolNotFoundBehavior' | 'toolErrorFormatter'>
>;

/**
 * Run settings under which a call to a tool the agent does not have goes back to the model as
 * a readable `tool_not_found` failure (the agent's tools and the closest names), and the run
 * goes on, where the SDK's default ends the run with a `ModelBehaviorError`; and a call a
 * person rejected (`state.reject(item)` without a `message`) reads as toolshield's denial:
 * "A person declined: ... Do not call it again with these arguments."
 *
 * @param tools the agent's tools (their names are what the model is pointed to)
 * @example
 * const tools = toAgentsTools(catalog);
 * const result = await new Runner(toolshieldRunConfig(tools)).run(new Agent({ name: 'Assistant', tools }), input);
 * @publicApi
 */
export function toolshieldRunConfig(
  tools: readonly { readonly name: string }[],
): ToolshieldRunConfig {
  const availableTools = tools.map((tool) => tool.name);
  return {
    toolNotFoundBehavior: 'return_error_to_model',
    toolErrorFormatter: ({ kind, toolName, callId }) => {
      if (kind === 'approval_rejected')
        return renderFailureText(declinedFailure({ tool: toolName, callId }));
      if (kind !== 'tool_not_found') return undefined;
      const error = new ToolNotFoundError(`There is no tool named "${toolName}".`, {
        availableTools,
        didYouMean: suggestToolNames(toolName, availableTools),
      });
      return renderFailureText(createToolFailure(error, { tool: toolName, callId, durationMs: 0 }));
    },
  };
}
