import type { InterruptOnConfig } from 'langchain';
import { LANGCHAIN_APPROVAL, type LangChainApprovalGate } from './langchain-approval-gate.js';

/** Options of {@link toolshieldInterruptOn}. @publicApi */
export interface ToolshieldInterruptOnOptions {
  /** What a person may decide (default approve, edit and reject). */
  readonly allowedDecisions?: InterruptOnConfig['allowedDecisions'];
  /** What the person is shown with each call. */
  readonly description?: InterruptOnConfig['description'];
}

/**
 * The `interruptOn` of LangChain's `humanInTheLoopMiddleware` for the toolshield tools with
 * `needsApproval`: the agent stops for a person on each call their policy picks, and resumed
 * with `new Command({ resume: { decisions } })` runs an approved (or edited) call once, without
 * toolshield asking again. A rejection never reaches the executor; its `message` is what the
 * model reads.
 *
 * @example
 * const tools = toLangChainTools(catalog);
 * const agent = createAgent({
 *   model, tools, checkpointer,
 *   middleware: [humanInTheLoopMiddleware({ interruptOn: toolshieldInterruptOn(tools) })],
 * });
 * @publicApi
 */
export function toolshieldInterruptOn(
  tools: readonly object[],
  options: ToolshieldInterruptOnOptions = {},
): Record<string, InterruptOnConfig> {
  const interruptOn: Record<string, InterruptOnConfig> = {};
  for (const tool of tools) {
    const gate = (tool as { [LANGCHAIN_APPROVAL]?: LangChainApprovalGate })[LANGCHAIN_APPROVAL];
    if (gate === undefined) continue;
    interruptOn[gate.toolName] = {
      allowedDecisions: options.allowedDecisions ?? ['approve', 'edit', 'reject'],
      ...(options.description === undefined ? {} : { description: options.description }),
      when: ({ toolCall }) => gate.interrupts(toolCall),
    };
  }
  return interruptOn;
}
