import { type OptionIssue, InvalidOptionsError } from '@toolshield/core';
import { assertOptions, listOf, objectOf, text } from '@toolshield/core/internal';

/** What `ToolShieldHealthIndicator.isReady()` takes. @publicApi */
export interface ToolShieldReadinessOptions {
  /**
   * Tools (or shared breaker names) without which this instance cannot serve: while one of
   * their breakers is open or isolated, readiness is `down`. Added to the tools declared
   * `@Tool({ critical: true })`. Default: none besides those.
   */
  readonly critical?: readonly string[];
}

const READINESS_OPTIONS_RULE = objectOf<ToolShieldReadinessOptions>({
  critical: listOf(text(true)),
});

const SUBJECT = 'ToolShieldHealthIndicator readiness options';

/**
 * Checks the options' shape, then that every `critical` name is a tool or a breaker name some
 * tool shares (`known`): a typo would otherwise leave a critical upstream unwatched.
 *
 * @internal
 */
export function assertReadinessOptions(
  options: ToolShieldReadinessOptions,
  known: (name: string) => boolean,
): void {
  assertOptions(READINESS_OPTIONS_RULE, options, SUBJECT);
  const issues: OptionIssue[] = (options.critical ?? []).flatMap((name, index) =>
    known(name)
      ? []
      : [
          {
            path: `critical[${index}]`,
            received: `'${name}'`,
            expected: 'the name of a tool or of a shared breaker',
          },
        ],
  );
  if (issues.length > 0) throw new InvalidOptionsError(SUBJECT, issues);
}
