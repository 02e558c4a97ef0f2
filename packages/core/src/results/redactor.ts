import { toJsonSafe } from './json-safe.js';

/** What every secret is replaced with. @publicApi */
export const REDACTED = '[REDACTED]';

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
}

interface Rule {
  readonly pattern: RegExp;
  readonly replacement: string;
}

const SECRET_PARAM_NAMES =
  'api[_-]?key|access[_-]?token|refresh[_-]?token|auth[_-]?token|id[_-]?token|token|password|passwd|pwd|client[_-]?secret|secret|signature|sig';
const SECRET_FIELD_NAMES =
  'password|passwd|client[_-]?secret|secret|api[_-]?key|authorization|access[_-]?token|refresh[_-]?token';

const BUILT_IN_RULES: readonly Rule[] = [
  // https://user:pass@host
  {
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*):[^\s/?#@]+@/gi,
    replacement: `$1:${REDACTED}@`,
  },
  // Authorization schemes; the credential must look like one (a digit or a symbol in it).
  {
    pattern: /\b(Bearer|Basic|Token)\s+(?=[\w.~+/=-]*[\d.~+/=-])[\w.~+/=-]{8,}/gi,
    replacement: `$1 ${REDACTED}`,
  },
  // JSON Web Tokens
  { pattern: /\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/g, replacement: REDACTED },
  // Provider keys: OpenAI/Anthropic, Stripe, GitHub, Slack, AWS, Google
  { pattern: /\bsk-(?:ant-)?[\w-]{16,}/g, replacement: REDACTED },
  { pattern: /\b[rs]k_(?:live|test)_[A-Za-z0-9]{10,}/g, replacement: REDACTED },
  { pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_\w{20,})/g, replacement: REDACTED },
  { pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, replacement: REDACTED },
  { pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, replacement: REDACTED },
  { pattern: /\bAIza[\w-]{35}/g, replacement: REDACTED },
  // ?api_key=..., &token=..., password=...
  {
    pattern: new RegExp(`\\b((?:${SECRET_PARAM_NAMES})=)[^&#\\s"',;]+`, 'gi'),
    replacement: `$1${REDACTED}`,
  },
  // "password": "...", secret: ...
  {
    pattern: new RegExp(
      `(["']?\\b(?:${SECRET_FIELD_NAMES})["']?\\s*:\\s*)(?!(?:Bearer|Basic|Token)\\s)("[^"]*"|'[^']*'|[^\\s,;}]+)`,
      'gi',
    ),
    replacement: `$1${REDACTED}`,
  },
];

/** Key names (lower case, separators removed) whose values are always secret. */
const SECRET_KEY =
  /(?:authorization|cookie|passw(?:or)?d|pwd|secret|apikey|accesskey|privatekey|credentials?|sessionid|token)$|^(?:password|secret)/;

/**
 * A redactor for the built-in secret shapes (provider API keys, `Bearer`/`Basic` tokens, JWTs,
 * passwords in URLs, secret query parameters and fields) plus `extraPatterns`, whose whole
 * matches are replaced.
 *
 * @example
 * createRedactor([/\bacme_[a-z0-9]{32}\b/g]).redactText('key acme_...'); // 'key [REDACTED]'
 *
 * @publicApi
 */
export function createRedactor(extraPatterns: readonly RegExp[] = []): Redactor {
  const rules = [
    ...BUILT_IN_RULES,
    ...extraPatterns.map((pattern) => ({ pattern: globally(pattern), replacement: REDACTED })),
  ];
  const redactText = (text: string): string =>
    rules.reduce((redacted, rule) => redacted.replace(rule.pattern, rule.replacement), text);
  return {
    redactText,
    redactValue: (value) =>
      toJsonSafe(value, { mapString: redactText, hidesKey: isSecretKey, hiddenValue: REDACTED }),
  };
}

/** The redactor used when none is given. @publicApi */
export const defaultRedactor: Redactor = createRedactor();

function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.toLowerCase().replace(/[\s_-]/g, ''));
}

function globally(pattern: RegExp): RegExp {
  return pattern.flags.includes('g') ? pattern : new RegExp(pattern.source, `${pattern.flags}g`);
}
