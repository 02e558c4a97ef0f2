/**
 * Tokens of chat, payment, mail, AI and package-registry services, recognised by their
 * documented prefixes (the shapes gitleaks and secretlint look for).
 */
export const SERVICE_TOKEN_PATTERNS: readonly string[] = [
  // Slack bot/user/app tokens
  'xox[abposre]-[A-Za-z0-9-]{10,}',
  'xapp-\\d-[A-Za-z0-9-]{10,}',
  // Stripe secret and restricted keys, webhook signing secrets
  '[rs]k_(?:live|test)_[A-Za-z0-9]{10,}',
  'whsec_[A-Za-z0-9+/=]{20,}',
  // SendGrid, Twilio API key, Mailgun
  'SG\\.[\\w-]{16,}\\.[\\w-]{16,}',
  'SK[0-9a-fA-F]{32}(?![A-Za-z0-9])',
  'key-[0-9a-zA-Z]{32}',
  // Hugging Face, OpenAI (sk-, sk-proj-, sk-svcacct-) and Anthropic (sk-ant-)
  'hf_[A-Za-z0-9]{30,}',
  'sk-[\\w-]{20,}',
  // npm, PyPI, Shopify, DigitalOcean
  'npm_[A-Za-z0-9]{36}',
  'pypi-AgEIcHlwaS5vcmc[\\w-]{20,}',
  'shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}',
  'do[opr]_v1_[a-f0-9]{64}',
];
