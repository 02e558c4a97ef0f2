import {
  ALNUM,
  BASE32,
  BASE64,
  BASE64URL,
  HEX,
  LETTERS,
  UPPER_ALNUM,
  fakeSource,
} from './fake-values.js';

/** One fake secret as it shows up in an error: `secret` must never leave a call, `text` carries it. */
export interface SecretSample {
  readonly family: string;
  readonly secret: string;
  readonly text: string;
}

const { chars, mixed } = fakeSource(0x5ec7e7);
const b64 = (length: number) => chars(BASE64, length);
const pad = (body: string) => `${body}${'='.repeat((4 - (body.length % 4)) % 4)}`;

/** `text` is `template` with `secret` in it. */
const sample = (family: string, secret: string, template: (secret: string) => string) => ({
  family,
  secret,
  text: template(secret),
});
const bare = (family: string, secret: string) => sample(family, secret, (s) => s);

/** A PEM block of 64-character lines; the secret checked is the key material's longest line. */
function pem(label: string, lines: number, newline: string): { body: string; block: string } {
  const rows = Array.from({ length: lines }, () => b64(64));
  return {
    body: rows[1],
    block: [`-----BEGIN ${label}-----`, ...rows, `-----END ${label}-----`].join(newline),
  };
}

function jwt(): string {
  const header = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
  const payload = Buffer.from(
    JSON.stringify({ sub: chars(HEX, 24), scope: 'orders:read', exp: 1893456000 }),
  ).toString('base64url');
  return `${header}.${payload}.${chars(BASE64URL, 43)}`;
}

const rsa = pem('RSA PRIVATE KEY', 12, '\n');
const openssh = pem('OPENSSH PRIVATE KEY', 8, '\n');
const ecEscaped = pem('EC PRIVATE KEY', 4, '\\n');
const pkcs8 = pem('PRIVATE KEY', 16, '\n');
const serviceAccountKey = pem('PRIVATE KEY', 16, '\n');
const basicCredentials = Buffer.from(`svc-orders:${mixed(ALNUM, 20)}`).toString('base64');
const githubFineGrained = `github_pat_${chars(UPPER_ALNUM, 22)}_${chars(ALNUM, 59)}`;

/**
 * 75 fake secrets of the rule classes of gitleaks and secretlint: cloud keys, VCS tokens, chat,
 * payment and AI provider tokens, JWTs, PEM blocks, credentials in URLs, authorization
 * headers, and `key=value` / JSON pairs whose key names a secret.
 */
export const SECRET_SAMPLES: readonly SecretSample[] = [
  // cloud keys
  bare('AWS access key id', `AKIA${chars(BASE32, 16)}`),
  sample(
    'AWS temporary key id',
    `ASIA${chars(BASE32, 16)}`,
    (s) => `credential ${s}/20261122/us-east-1/s3`,
  ),
  sample('AWS secret key (ini)', b64(40), (s) => `aws_secret_access_key=${s}`),
  sample('AWS secret key (env)', b64(40), (s) => `AWS_SECRET_ACCESS_KEY="${s}"`),
  sample(
    'AWS secret key (JSON)',
    b64(40),
    (s) => `{"AccessKeyId":"AKIA${chars(BASE32, 16)}","SecretAccessKey":"${s}"}`,
  ),
  sample('AWS session token', b64(120), (s) => `aws_session_token = ${s}`),
  sample(
    'Azure storage AccountKey',
    pad(b64(86)),
    (s) =>
      `DefaultEndpointsProtocol=https;AccountName=acmeorders;AccountKey=${s};EndpointSuffix=core.windows.net`,
  ),
  sample(
    'Azure Service Bus SharedAccessKey',
    pad(b64(43)),
    (s) =>
      `Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${s}`,
  ),
  sample(
    'Azure SAS signature',
    `${b64(43).replace(/[+/]/g, 'x')}%3D`,
    (s) =>
      `https://acme.blob.core.windows.net/exports/orders.csv?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-01T00:00:00Z&sig=${s}`,
  ),
  bare('Azure AD client secret', `${chars(ALNUM, 3)}8Q~${chars(`${ALNUM}_~.-`, 34)}`),
  sample('GCP service account private_key (JSON)', serviceAccountKey.body, () =>
    JSON.stringify({
      type: 'service_account',
      project_id: 'acme-orders',
      private_key_id: chars(HEX, 40),
      private_key: `${serviceAccountKey.block}\n`,
      client_email: 'orders@acme-orders.iam.gserviceaccount.com',
    }),
  ),
  sample(
    'GCP private_key_id',
    chars(HEX, 40),
    (s) => `{"type": "service_account", "private_key_id": "${s}"}`,
  ),
  bare('Google API key', `AIza${chars(BASE64URL, 35)}`),
  sample(
    'Google OAuth access token',
    `ya29.${chars(BASE64URL, 120)}`,
    (s) => `token ${s} was rejected`,
  ),
  bare('Google OAuth client secret', `GOCSPX-${chars(BASE64URL, 28)}`),
  // VCS tokens
  bare('GitHub classic PAT', `ghp_${chars(ALNUM, 36)}`),
  bare('GitHub OAuth token', `gho_${chars(ALNUM, 36)}`),
  bare('GitHub app installation token', `ghs_${chars(ALNUM, 36)}`),
  bare('GitHub user-to-server token', `ghu_${chars(ALNUM, 36)}`),
  bare('GitHub refresh token', `ghr_${chars(ALNUM, 76)}`),
  bare('GitHub fine-grained PAT', githubFineGrained),
  sample('GitHub token after an underscore', `ghp_${chars(ALNUM, 36)}`, (s) => `GITHUB_TOKEN_${s}`),
  bare('GitLab PAT', `glpat-${chars(BASE64URL, 20)}`),
  bare('GitLab deploy token', `gldt-${chars(BASE64URL, 20)}`),
  // chat and payment
  bare(
    'Slack bot token',
    `xoxb-${chars('0123456789', 12)}-${chars('0123456789', 13)}-${chars(ALNUM, 24)}`,
  ),
  bare(
    'Slack user token',
    `xoxp-${chars('0123456789', 12)}-${chars('0123456789', 12)}-${chars('0123456789', 13)}-${chars(HEX, 32)}`,
  ),
  bare(
    'Slack app token',
    `xapp-1-A${chars(UPPER_ALNUM, 10)}-${chars('0123456789', 13)}-${chars(HEX, 64)}`,
  ),
  sample(
    'Slack webhook',
    chars(ALNUM, 24),
    (s) =>
      `https://hooks.slack.com/services/T${chars(UPPER_ALNUM, 8)}/B${chars(UPPER_ALNUM, 10)}/${s}`,
  ),
  sample(
    'Slack webhook, percent-encoded in a request URL',
    chars(ALNUM, 24),
    (s) =>
      `http://127.0.0.1:4010/page?url=${encodeURIComponent(`https://hooks.slack.com/services/T${chars(UPPER_ALNUM, 8)}/B${chars(UPPER_ALNUM, 10)}/${s}`)}`,
  ),
  sample(
    'Discord webhook',
    chars(BASE64URL, 68),
    (s) => `https://discord.com/api/webhooks/${chars('0123456789', 18)}/${s}`,
  ),
  sample(
    'Microsoft Teams incoming webhook',
    chars(ALNUM, 45),
    (s) =>
      `https://contoso.webhook.office.com/webhookb2/${chars(HEX, 8)}-${chars(HEX, 4)}-${chars(HEX, 4)}-${chars(HEX, 4)}-${chars(HEX, 12)}@${chars(HEX, 8)}-${chars(HEX, 4)}-${chars(HEX, 4)}-${chars(HEX, 4)}-${chars(HEX, 12)}/IncomingWebhook/${chars(HEX, 32)}/${chars(HEX, 8)}-${chars(HEX, 4)}-${chars(HEX, 4)}-${chars(HEX, 4)}-${chars(HEX, 12)}/V2${s}`,
  ),
  bare('Stripe live secret key', `sk_live_${chars(ALNUM, 99)}`),
  bare('Stripe restricted key', `rk_live_${chars(ALNUM, 99)}`),
  bare('Stripe test secret key', `sk_test_${chars(ALNUM, 24)}`),
  bare('Stripe webhook secret', `whsec_${chars(ALNUM, 32)}`),
  bare('SendGrid API key', `SG.${chars(BASE64URL, 22)}.${chars(BASE64URL, 43)}`),
  bare('Twilio API key', `SK${chars(HEX, 32)}`),
  sample('Twilio auth token', chars(HEX, 32), (s) => `TWILIO_AUTH_TOKEN=${s}`),
  bare('Mailgun API key', `key-${chars(HEX, 32)}`),
  sample(
    'Telegram bot token',
    `${chars('0123456789', 10)}:AA${chars(BASE64URL, 33)}`,
    (s) => `https://api.telegram.org/bot${s}/sendMessage`,
  ),
  sample(
    'Discord bot token',
    `${chars(ALNUM, 24)}.${chars(BASE64URL, 6)}.${chars(BASE64URL, 38)}`,
    (s) => `Authorization: Bot ${s}`,
  ),
  // AI providers and registries
  bare('Hugging Face token', `hf_${chars(LETTERS, 34)}`),
  bare('OpenAI project key', `sk-proj-${chars(BASE64URL, 156)}`),
  bare('OpenAI legacy key', `sk-${chars(ALNUM, 48)}`),
  bare('Anthropic API key', `sk-ant-api03-${chars(BASE64URL, 93)}AA`),
  bare('npm token', `npm_${chars(ALNUM, 36)}`),
  bare('PyPI token', `pypi-AgEIcHlwaS5vcmc${chars(BASE64URL, 70)}`),
  bare('Shopify access token', `shpat_${chars(HEX, 32)}`),
  bare('DigitalOcean token', `dop_v1_${chars(HEX, 64)}`),
  // structural
  bare('JWT', jwt()),
  sample('JWT as Bearer', jwt(), (s) => `Authorization: Bearer ${s}`),
  sample('PEM RSA private key', rsa.body, () => rsa.block),
  sample('PEM OpenSSH private key', openssh.body, () => `key file contents: ${openssh.block}`),
  sample('PEM EC key, JSON-escaped', ecEscaped.body, () => `{"signingKey":"${ecEscaped.block}"}`),
  sample('PEM PKCS#8 key in a property', pkcs8.body, () => `private_key: ${pkcs8.block}`),
  sample(
    'Postgres URL password',
    mixed(`${ALNUM}!$*`, 20),
    (s) => `postgres://orders:${s}@db.internal:5432/orders`,
  ),
  sample(
    'HTTPS URL with token password',
    chars(ALNUM, 40),
    (s) => `https://x-access-token:${s}@github.com/acme/orders.git`,
  ),
  sample('Redis URL password only', mixed(ALNUM, 24), (s) => `redis://:${s}@cache.internal:6379/0`),
  sample(
    'MongoDB SRV URL password',
    mixed(ALNUM, 24),
    (s) => `mongodb+srv://app:${s}@cluster0.ab1cd.mongodb.net/orders?retryWrites=true`,
  ),
  sample('Bearer opaque token', chars(ALNUM, 40), (s) => `Authorization: Bearer ${s}`),
  sample('Basic credentials', basicCredentials, (s) => `authorization: Basic ${s}`),
  sample('Token scheme', chars(HEX, 40), (s) => `Authorization: Token ${s}`),
  // key=value and JSON pairs whose key names a secret
  sample('password=', mixed(ALNUM, 16), (s) => `login failed with password=${s}`),
  sample(
    'api_key query parameter',
    chars(HEX, 32),
    (s) => `https://api.weather.example/v1/now?city=Paris&api_key=${s}`,
  ),
  sample(
    'client_secret form field',
    chars(BASE64URL, 40),
    (s) => `grant_type=client_credentials&client_id=orders&client_secret=${s}`,
  ),
  sample(
    '"password" JSON field',
    mixed(ALNUM, 18),
    (s) => `{"user": "orders", "password": "${s}"}`,
  ),
  sample('{"token": ...}', chars(ALNUM, 32), (s) => `{"token":"${s}"}`),
  sample('"apiKey" JSON field', chars(HEX, 32), (s) => `{"apiKey":"${s}","region":"eu-west-1"}`),
  sample(
    'refresh_token JSON field',
    chars(BASE64URL, 64),
    (s) =>
      `{"access_token":"${chars(BASE64URL, 40)}","refresh_token":"${s}","token_type":"Bearer"}`,
  ),
  sample('X-Api-Key header', chars(HEX, 32), (s) => `X-Api-Key: ${s}`),
  sample('Cookie session id', chars(BASE64URL, 32), (s) => `Cookie: session_id=${s}; theme=dark`),
  sample('DB_PASSWORD env line', mixed(ALNUM, 20), (s) => `DB_PASSWORD='${s}'`),
  sample('YAML secret', mixed(ALNUM, 24), (s) => `client_secret: ${s}`),
  sample('Datadog API key env', chars(HEX, 32), (s) => `DD_API_KEY=${s}`),
  sample('passphrase', mixed(ALNUM, 20), (s) => `passphrase=${s}`),
];
