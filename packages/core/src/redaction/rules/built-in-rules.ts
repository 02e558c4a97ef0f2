import type { RedactionRule } from '../redaction-rule.js';
import { CLOUD_KEY_PATTERNS } from './cloud-keys.js';
import { SECRET_KEY_VALUE_RULE } from './secret-keys.js';
import { SERVICE_TOKEN_PATTERNS } from './service-tokens.js';
import {
  AUTHORIZATION_SCHEME_RULE,
  JWT_PATTERN,
  PEM_PRIVATE_KEY_RULE,
  SECRET_QUERY_PARAMETER_RULE,
  TELEGRAM_BOT_TOKEN_RULE,
  URL_CREDENTIALS_RULE,
  WEBHOOK_URL_RULE,
} from './structural.js';
import { VCS_TOKEN_PATTERNS } from './vcs-tokens.js';

/**
 * Every token with a shape of its own, in one alternation: one scan of the text instead of
 * one per family. A token starts where no letter or digit precedes it, so `_` or `=` before
 * it (`GITHUB_TOKEN_ghp_…`) does not hide it.
 */
const SHAPED_TOKEN_RULE: RedactionRule = {
  pattern: new RegExp(
    `(?<![A-Za-z0-9])(?:${[...CLOUD_KEY_PATTERNS, ...VCS_TOKEN_PATTERNS, ...SERVICE_TOKEN_PATTERNS, JWT_PATTERN].join('|')})`,
    'g',
  ),
};

/**
 * The built-in rules, in the order they run: multi-line blocks first (a PEM key is hidden
 * whole), then credentials in URLs, then pairs whose key names a secret (so a token under a
 * secret key is hidden with its whole value), then shaped tokens anywhere, then whatever
 * follows an authorization scheme.
 */
export const BUILT_IN_RULES: readonly RedactionRule[] = [
  PEM_PRIVATE_KEY_RULE,
  URL_CREDENTIALS_RULE,
  WEBHOOK_URL_RULE,
  SECRET_KEY_VALUE_RULE,
  SECRET_QUERY_PARAMETER_RULE,
  SHAPED_TOKEN_RULE,
  TELEGRAM_BOT_TOKEN_RULE,
  AUTHORIZATION_SCHEME_RULE,
];
