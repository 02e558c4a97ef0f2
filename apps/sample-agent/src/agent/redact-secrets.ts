/** Query parameters whose values are secrets. */
const SECRET_PARAMETER = /([?&](?:api[-_]?key|key|token|access_token|secret)=)[^&#\s]+/gi;
/** Bearer tokens and OpenAI-style keys anywhere in a text. */
const SECRET_TOKENS = [/\bBearer\s+[\w.~+/-]+=*/gi, /\bsk-[\w-]{6,}/g];

/** `url` without credentials: user info and secret query values become `***`. */
export function redactUrl(url: string): string {
  return url
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1***@')
    .replace(SECRET_PARAMETER, '$1***');
}

/** `text` with `secrets` (an API key, ...) and anything shaped like a key or token masked. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let redacted = redactUrl(text);
  for (const secret of secrets) {
    if (secret.length >= 4) redacted = redacted.split(secret).join('***');
  }
  for (const pattern of SECRET_TOKENS) redacted = redacted.replace(pattern, '***');
  return redacted;
}
