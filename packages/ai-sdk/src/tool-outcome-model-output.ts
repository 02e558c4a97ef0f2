import { type ToolOutcome } from '@toolshield/core';
import { outcomeContent } from '@toolshield/core/internal';
import type { Tool } from 'ai';

/** What a tool's `toModelOutput` hands the AI SDK: the content of one tool result. @publicApi */
export type AiSdkModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/**
 * What the model reads for a toolshield outcome: a result's output as text (a string as it is,
 * anything else as JSON), a failure as toolshield's short failure text in an `error-text`
 * part, which providers mark as an error (Anthropic's `is_error`, for one).
 *
 * @publicApi
 */
export function toolOutcomeModelOutput(outcome: ToolOutcome): AiSdkModelOutput {
  return { type: outcome.success ? 'text' : 'error-text', value: outcomeContent(outcome) };
}
