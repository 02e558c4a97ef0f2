import { compileToolMatcher } from '@toolshield/chaos';
import { InvalidChaosRuleError } from './chaos-rule-errors.js';

/** The app's tools as chaos rules address them. */
export interface ChaosToolScope {
  /** Every registered tool. */
  readonly all: readonly string[];
  /** The idempotent, read-only tools: where a rule without a tool list applies. */
  readonly safeReads: readonly string[];
}

/**
 * Checks that each of a rule's tool names or globs selects at least one tool of the app (a
 * typo would otherwise make a rule that never fires); throws {@link InvalidChaosRuleError}.
 */
export function checkRuleTools(patterns: readonly string[], scope: ChaosToolScope): void {
  for (const pattern of patterns) {
    const matches = compileToolMatcher([pattern]);
    if (!scope.all.some((tool) => matches(tool))) {
      throw new InvalidChaosRuleError(
        `"tools" names no tool of this app: ${JSON.stringify(pattern)}; the tools: ${scope.all.join(', ')} ("*" for all).`,
      );
    }
  }
}

/** The tools a rule reaches: its own list, or the safe reads when it gives none. */
export function ruleTools(
  tools: readonly string[] | undefined,
  scope: ChaosToolScope,
): readonly string[] {
  return tools ?? scope.safeReads;
}
