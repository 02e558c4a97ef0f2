/**
 * Cloud provider credentials that can be told by their shape alone (AWS access key ids, Google
 * API keys and OAuth tokens, Azure AD client secrets). Keyed cloud secrets with no shape of
 * their own (`aws_secret_access_key=…`, `AccountKey=…`, `"private_key": …`) are found by the
 * secret-key rule instead.
 */
export const CLOUD_KEY_PATTERNS: readonly string[] = [
  // AWS access key ids: long-term (AKIA), temporary (ASIA) and the other documented prefixes
  '(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}(?![A-Za-z0-9])',
  // Google API key, OAuth access token, OAuth client secret
  'AIza[\\w-]{35}',
  'ya29\\.[\\w-]{20,}',
  'GOCSPX-[\\w-]{24,}',
  // Azure AD (Entra) client secret: three characters, a digit, "Q~", then 31-34 more
  '[\\w~.]{3}\\dQ~[\\w~.-]{31,34}',
];
