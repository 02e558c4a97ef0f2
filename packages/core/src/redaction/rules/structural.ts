import { REDACTED, type RedactionRule } from '../redaction-rule.js';

/** JSON Web Tokens (and other JWS compact serialisations): three base64url parts, the first JSON. */
export const JWT_PATTERN = 'eyJ[\\w-]{5,}\\.[\\w-]{5,}\\.[\\w-]*';

/**
 * PEM private key blocks (PKCS#1, PKCS#8, EC, OpenSSH, PGP, encrypted), with real or
 * JSON-escaped (`\n`) line breaks, up to the END line or, when the text was cut, to its end.
 */
export const PEM_PRIVATE_KEY_RULE: RedactionRule = {
  pattern:
    /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  hints: ['private key'],
};

/** The password of credentials in a URL (`scheme://user:password@host`); the user stays. */
export const URL_CREDENTIALS_RULE: RedactionRule = {
  // Anchored on "://" rather than on the scheme: a scan for one literal is several times
  // cheaper than trying a scheme at every letter of a long message. Brackets cannot appear in
  // a URL's user information (RFC 3986), and excluding them keeps redaction idempotent: a
  // `password=[REDACTED]` left by another rule is not read as a URL password on a second pass.
  pattern: /:\/\/([^\s:/?#@[\]]*):[^\s/?#[\]]*@/g,
  replacement: `://$1:${REDACTED}@`,
  hints: ['://'],
};

/** A `/` in a URL as it is, percent-encoded (once or twice) or JSON-escaped (`\/`). */
const SLASH = String.raw`(?:\/|\\\/|%(?:25)?2F)`;
/** The hosts and paths of incoming webhooks, up to the `/` the credential follows. */
const WEBHOOK_PREFIXES = [
  // Slack incoming webhooks and workflow triggers
  String.raw`hooks\.slack\.com${SLASH}(?:services|workflows|triggers)`,
  // Discord channel webhooks
  String.raw`discord(?:app)?\.com${SLASH}api${SLASH}(?:v\d+${SLASH})?webhooks`,
  // Microsoft Teams incoming webhooks (tenant.webhook.office.com) and their legacy host
  String.raw`[\w-]+\.webhook\.office\.com${SLASH}webhookb2`,
  String.raw`outlook\.office(?:365)?\.com${SLASH}webhook(?:b2)?`,
];
/** A character of the credential path: URL-safe, an escape (`%40`), or a separator. */
const WEBHOOK_PATH_CHAR = String.raw`(?:[\w.~+@=-]|%[0-9A-Fa-f]{2}|${SLASH})`;

/**
 * Incoming-webhook URLs whose path is the credential (Slack, Discord, Microsoft Teams), also
 * percent-encoded in another URL's query or with JSON-escaped slashes: everything after the
 * hook's kind is hidden, the host stays.
 */
export const WEBHOOK_URL_RULE: RedactionRule = {
  pattern: new RegExp(`((?:${WEBHOOK_PREFIXES.join('|')})${SLASH})${WEBHOOK_PATH_CHAR}+`, 'gi'),
  replacement: `$1${REDACTED}`,
  hints: [
    'hooks.slack.com',
    'discord.com',
    'discordapp.com',
    'webhook.office.com',
    'outlook.office',
  ],
};

/** Telegram bot tokens, also where the Bot API puts them: right after `/bot` in its URLs. */
export const TELEGRAM_BOT_TOKEN_RULE: RedactionRule = {
  pattern: /(?<![0-9])\d{8,10}:AA[\w-]{33}/g,
  hints: [':aa'],
};

/** `key`, `code` and `sig`-like query parameters that the secret-key rule does not cover. */
export const SECRET_QUERY_PARAMETER_RULE: RedactionRule = {
  pattern: /([?&](?:key|code)=)[^&#\s"'\\]+/gi,
  replacement: `$1${REDACTED}`,
  hints: ['key=', 'code='],
};

/**
 * The credential after an authorization scheme (`Bearer …`, `Basic …`, `Token …`, `Bot …`)
 * when it looks like one: 16 characters or more, or a digit or symbol in it, or mixed case.
 * Prose such as "Basic authentication failed" stays.
 */
export const AUTHORIZATION_SCHEME_RULE: RedactionRule = {
  pattern: /(?<![A-Za-z0-9])(Bearer|Basic|Token|Digest|Bot)(\s+)([\w.~+/=-]{8,})/gi,
  replacement: (match: string, scheme: string, space: string, credential: string) =>
    looksLikeCredential(credential) ? `${scheme}${space}${REDACTED}` : match,
  hints: ['bearer', 'basic', 'token', 'digest', 'bot'],
};

/** Whether a word after a scheme or a `key:` is a credential rather than prose. */
export function looksLikeCredential(word: string): boolean {
  return word.length >= 16 || /[\d.~+/=_-]/.test(word) || /[A-Z]/.test(word.slice(1));
}
