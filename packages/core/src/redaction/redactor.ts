import { toJsonSafe } from '../results/json-safe.js';
import { REDACTED, type RedactionRule } from './redaction-rule.js';
import { BUILT_IN_RULES } from './rules/built-in-rules.js';
import { isSecretKey } from './rules/secret-keys.js';

/**
 * Removes secrets from what the model and the logs see.
 *
 * @publicApi
 */
export interface Redactor {
  /** `text` with every secret-looking token replaced by {@link REDACTED}. */
  redactText(text: string): string;
  /**
   * A JSON-safe deep copy of `value` (cycle-safe) in which the values of secret-named keys
   * (`authorization`, `apiKey`, `password`, `cookie`, ...) are replaced and every string is
   * passed through {@link Redactor.redactText}.
   */
  redactValue(value: unknown): unknown;
  /**
   * Whether the value under this key is hidden whole by {@link Redactor.redactValue}. When a
   * redactor tells, the failure sanitizer copies metadata in one pass instead of two.
   */
  readonly hidesKey?: (key: string) => boolean;
}

/** A rule ready to run: global pattern, replacement, and its hints as one test. */
interface CompiledRule {
  readonly pattern: RegExp;
  readonly replacement: string | ((match: string, ...rest: unknown[]) => string);
  /** One case-insensitive test for all of the rule's hints. */
  readonly hints: RegExp | undefined;
}

/**
 * A redactor for the built-in secret shapes plus `extra` rules of yours, which run after the
 * built-in ones: a `RegExp` hides its whole match, a {@link RedactionRule} says what a match
 * becomes and when to bother looking.
 *
 * Built in: cloud keys (AWS access key ids, Google API keys and OAuth tokens, Azure AD client
 * secrets), VCS tokens (GitHub, GitLab), chat, payment, mail, AI and registry tokens (Slack,
 * Stripe, SendGrid, Twilio, Mailgun, Telegram, Hugging Face, OpenAI, Anthropic, npm, PyPI,
 * Shopify, DigitalOcean), JWTs, PEM private key blocks, passwords in URLs, incoming-webhook URLs
 * (Slack, Discord, Microsoft Teams; also percent-encoded),
 * credentials after `Bearer`/`Basic`/`Token`, and the values of `key=value`, `key: value` and
 * (escaped) JSON pairs whose key names a secret (`aws_secret_access_key`, `AccountKey`,
 * `"SecretAccessKey"`, `"private_key"`, `{"token": …}`, ...).
 *
 * @example
 * createRedactor([/\bacme_[a-z0-9]{32}\b/g]).redactText('key acme_...'); // 'key [REDACTED]'
 *
 * @publicApi
 */
export function createRedactor(extra: readonly (RegExp | RedactionRule)[] = []): Redactor {
  const rules = [...BUILT_IN_RULES, ...extra.map(asRule)].map(compile);
  const redactText = (text: string): string => {
    if (text.length === 0) return text;
    let redacted = text;
    for (const rule of rules) {
      if (rule.hints && !rule.hints.test(text)) continue;
      redacted = redacted.replace(rule.pattern, rule.replacement as (match: string) => string);
    }
    return redacted;
  };
  return {
    redactText,
    redactValue: (value) =>
      toJsonSafe(value, { mapString: redactText, hidesKey: isSecretKey, hiddenValue: REDACTED }),
    hidesKey: isSecretKey,
  };
}

/** The redactor used when none is given. @publicApi */
export const defaultRedactor: Redactor = createRedactor();

function asRule(rule: RegExp | RedactionRule): RedactionRule {
  return rule instanceof RegExp ? { pattern: rule } : rule;
}

function compile(rule: RedactionRule): CompiledRule {
  const { pattern } = rule;
  return {
    pattern: pattern.flags.includes('g')
      ? pattern
      : new RegExp(pattern.source, `${pattern.flags}g`),
    replacement: (rule.replacement ?? REDACTED) as CompiledRule['replacement'],
    hints:
      rule.hints && rule.hints.length > 0
        ? new RegExp(
            rule.hints.map((hint) => hint.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
            'i',
          )
        : undefined,
  };
}
