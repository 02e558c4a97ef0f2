import { REDACTED, type RedactionRule } from '../redaction-rule.js';
import { looksLikeCredential } from './structural.js';

/**
 * How a key that names a secret ends (case-insensitive; `_`, `-` or `.` may separate the
 * words): `password`, `aws_secret_access_key`, `SecretAccessKey`, `client_secret`,
 * `x-api-key`, `refresh_token`, `AccountKey`, `SharedAccessKey`, `private_key`,
 * `private_key_id`, `session_id`, `cookie`, `authorization`, `dsn`, ... The key may have
 * any prefix (`DB_PASSWORD`, `GITHUB_TOKEN`); `tokens`, `token_type` or `tokenCount` do not end
 * in a secret word and stay.
 */
const SECRET_KEY_ENDING =
  '(?:pass(?:word|wd|phrase)?|pwd|secret|token|credentials?|auth|authorization|cookie|signature|sig|dsn' +
  '|(?:api|access|secret|private|account|client|master|signing|encryption|shared[_.-]?access|app|auth|subscription|storage|session|license)[_.-]?key' +
  '|private[_.-]?key[_.-]?id|session(?:[_.-]?(?:id|token))?|sessid|sid|connection[_.-]?string)';

const SECRET_KEY = new RegExp(`${SECRET_KEY_ENDING}$`, 'i');

/** Whether the value under this key (of an object, a header, a form) is a secret. @publicApi */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** Values that say nothing secret, kept as they are. */
const EMPTY_VALUES = new Set(['null', 'undefined', 'true', 'false', 'none', '']);
const SCHEME = /^(?:Bearer|Basic|Token|Digest|Bot)\s+/i;

/**
 * The value of a pair whose key names a secret, in the forms errors carry them: `key=value`,
 * `key: value`, `"key": "value"`, `'key': 'value'`, and JSON escaped once or twice inside
 * another string (`\"token\":\"…\"`). A quoted value is hidden up to its closing quote (or
 * the end of the text, when it was cut); a bare one up to a separator. After a colon a bare
 * word followed by more prose ("Invalid token: the signature …") is kept. An authorization
 * scheme stays visible (`Authorization: Bearer [REDACTED]`).
 */
export const SECRET_KEY_VALUE_RULE: RedactionRule = {
  pattern: new RegExp(
    `(${SECRET_KEY_ENDING}["'\\\\]*\\s*(?:=>|:=|[:=])\\s*)` +
      `(?:(\\\\*["'])((?:(?!\\2)(?:\\\\.|[^\\r\\n]))*)` +
      `|((?:(?:Bearer|Basic|Token|Digest|Bot)\\s+)?[^\\s"'\\\\,;&{}[\\]()<>]*))`,
    'gi',
  ),
  replacement: (
    match: string,
    head: string,
    quote: string | undefined,
    quoted: string | undefined,
    bare: string | undefined,
    offset: number,
    text: string,
  ) => {
    if (quote !== undefined) return quoted === '' ? match : `${head}${quote}${REDACTED}`;
    const value = bare ?? '';
    const scheme = SCHEME.exec(value)?.[0] ?? '';
    const secret = value.slice(scheme.length);
    if (EMPTY_VALUES.has(secret.toLowerCase()) || secret.startsWith('[REDACTED')) return match;
    if (scheme === '' && isProseAfterColon(head, value, text.slice(offset + match.length)))
      return match;
    return `${head}${scheme}${REDACTED}`;
  },
  hints: [
    'pass',
    'pwd',
    'secret',
    'token',
    'credential',
    'auth',
    'cookie',
    'sig',
    'dsn',
    'key',
    'sess',
    'sid',
    'connection',
  ],
};

/** `token: expired, ...` is a secret; `Invalid token: the signature did not match` is prose. */
function isProseAfterColon(head: string, value: string, after: string): boolean {
  return (
    head.trimEnd().endsWith(':') &&
    !looksLikeCredential(value) &&
    /^[A-Za-z]+$/.test(value) &&
    /^ +[a-z]/.test(after)
  );
}
