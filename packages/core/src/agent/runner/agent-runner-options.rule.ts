import type { AgentRunnerOptions } from './agent-runner-options.js';
import {
  anyObject,
  bool,
  either,
  func,
  integer,
  listOf,
  objectOf,
  oneOf,
  required,
  text,
} from '../../options/option-rules.js';
import { LEDGER_STORE_RULE } from '../ledger/ledger-store.rule.js';
import { LOOP_GUARD_OPTIONS_RULE } from '../guards/loop-guard-options.rule.js';
import { TOOL_BATCH_DEFAULTS_RULE } from '../batch/tool-batch-options.rule.js';

/** How {@link AgentRunnerOptions} are checked. @publicApi */
export const AGENT_RUNNER_OPTIONS_RULE = objectOf<AgentRunnerOptions>({
  model: required(func()),
  executor: required(func()),
  tools: listOf(anyObject('a tool definition object')),
  store: LEDGER_STORE_RULE,
  systemPrompt: text(),
  includeGuidance: bool(),
  completionTool: text(true),
  batch: TOOL_BATCH_DEFAULTS_RULE,
  guards: LOOP_GUARD_OPTIONS_RULE,
  decisionPrompt: either(
    oneOf(['every-failure', 'unrecoverable-only', 'never']),
    objectOf<{ afterConsecutiveFailures: unknown }>(
      { afterConsecutiveFailures: required(integer(1)) },
      'an object { afterConsecutiveFailures }',
    ),
  ),
  safeToRepeat: func(),
  renderOutcome: func(),
  stopAnswer: func(),
});
