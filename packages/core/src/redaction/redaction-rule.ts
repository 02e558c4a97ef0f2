/** What every secret is replaced with. @publicApi */
export const REDACTED = '[REDACTED]';

/**
 * What a match of a {@link RedactionRule} becomes: a replacement string (`$1` and `$<name>`
 * refer to the match's groups) or a function of the match, as `String.prototype.replace`
 * takes them.
 *
 * @publicApi
 */
export type RedactionReplacement = string | ((match: string, ...rest: never[]) => string);

/**
 * One way of finding secrets in text.
 *
 * @example
 * // keep the prefix, hide the rest: "acme_live_[REDACTED]"
 * const rule: RedactionRule = { pattern: /\b(acme_live_)[a-z0-9]{32}\b/g, replacement: `$1${REDACTED}`, hints: ['acme_live_'] };
 *
 * @publicApi
 */
export interface RedactionRule {
  /** What to find; made global when it is not. */
  readonly pattern: RegExp;
  /** What a match becomes. Default: the whole match becomes {@link REDACTED}. */
  readonly replacement?: RedactionReplacement;
  /**
   * A cheap pre-check: the rule only runs on text that contains at least one of these
   * (compared case-insensitively). Default: always run.
   */
  readonly hints?: readonly string[];
}
