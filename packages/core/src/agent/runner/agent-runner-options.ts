import type { ToolFailure } from '../../results/index.js';
import type { ToolBatchOptions } from '../batch/tool-batch-options.js';
import type { ToolCallExecutor } from '../batch/tool-call-executor.js';
import type { DecisionPromptPolicy } from '../decision/decision-prompt-policy.js';
import type { LoopGuardOptions } from '../guards/loop-guard-options.js';
import type { ToolCallLedgerStore } from '../ledger/tool-call-ledger-store.js';
import type { ToolOutcomeRenderer } from '../outcomes/tool-result-message.js';
import type { AgentStopReason } from './agent-run-result.js';
import type { ChatModel, ChatModelTool } from './chat-model.js';

/** @publicApi */
export interface AgentRunnerOptions {
  readonly model: ChatModel;
  /**
   * Runs one tool call; `ToolExecutor.execute` from `@toolshield/nest` fits. Each call gets the
   * run's `conversationId` with its `signal`.
   */
  readonly executor: ToolCallExecutor;
  /** What the model is told it may call; the completion tool is added when it is not among them. */
  readonly tools?: readonly ChatModelTool[];
  /** Where histories are kept between runs and restarts; default in memory. */
  readonly store?: ToolCallLedgerStore;
  /** Opens a new conversation, followed by the failure guidance. */
  readonly systemPrompt?: string;
  /** Adds `buildDecisionGuidance(completionTool)` to a new conversation's system message; default true. */
  readonly includeGuidance?: boolean;
  /**
   * The tool the model calls to stop; default `complete`. It also ends a batch. When `tools`
   * has no tool of this name the runner offers its own (`completionToolDefinition`): the
   * call's `answer` argument is the run's final answer, and the executor never sees the call.
   */
  readonly completionTool?: string;
  /** Batch strategy; terminating tools default to `DEFAULT_TERMINATING_TOOLS` plus `completionTool`. */
  readonly batch?: Omit<ToolBatchOptions, 'signal' | 'onEntry'>;
  readonly guards?: LoopGuardOptions;
  /** When to ask the model to CONTINUE or STOP after failures; default `every-failure`. */
  readonly decisionPrompt?: DecisionPromptPolicy;
  /**
   * Whether a tool is safe to call again with the same arguments (idempotent). When a run
   * resumes after a crash, an interrupted call of such a tool is answered as recoverable with
   * the advice to call it again; other interrupted calls have an unknown outcome. Default: no
   * tool is.
   */
  readonly safeToRepeat?: (toolName: string) => boolean;
  /** Renders outcomes into tool result content; default `renderToolOutcomeContent`. */
  readonly renderOutcome?: ToolOutcomeRenderer;
  /** The final answer of a stopped run; default names the reason and the last error. */
  readonly stopAnswer?: (reason: AgentStopReason, lastFailure: ToolFailure | undefined) => string;
}
