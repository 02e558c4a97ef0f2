import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { classifyError } from '../classification/classify-error.js';
import { createToolFailure } from '../results/create-tool-failure.js';
import { renderFailureText } from '../rendering/render-failure-text.js';
import { REDACTED } from './redaction-rule.js';
import { defaultRedactor } from './redactor.js';

const SLACK_SECRET = 'abcdEFGHijklMNOPqrstUVWX';
const SLACK = `https://hooks.slack.com/services/T0ABCDEFG/B0ABCDEFGHI/${SLACK_SECRET}`;
const DISCORD_SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz-_0123456789abcdefghijklmnopqrstuvwxyzAB';
const DISCORD = `https://discord.com/api/webhooks/123456789012345678/${DISCORD_SECRET}`;
const TEAMS_SECRET = 'V2abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';
const TEAMS =
  'https://contoso.webhook.office.com/webhookb2/a1b2c3d4-e5f6-7890-abcd-ef1234567890@72f988bf-86f1-41af-91ab-2d7cd011db47' +
  `/IncomingWebhook/0123456789abcdef0123456789abcdef/a1b2c3d4-e5f6-7890-abcd-ef1234567890/${TEAMS_SECRET}`;

/** The incoming-webhook URLs, each with the part of its path that is the credential. */
const WEBHOOKS = [
  { family: 'Slack', url: SLACK, secret: SLACK_SECRET },
  {
    family: 'Slack workflow',
    url: `https://hooks.slack.com/workflows/T0ABCDEFG/A0ABCDEFGHI/123456789012345678/${SLACK_SECRET}`,
    secret: SLACK_SECRET,
  },
  { family: 'Discord', url: DISCORD, secret: DISCORD_SECRET },
  {
    family: 'Discord (discordapp.com)',
    url: DISCORD.replace('discord.com', 'discordapp.com'),
    secret: DISCORD_SECRET,
  },
  { family: 'Microsoft Teams', url: TEAMS, secret: TEAMS_SECRET },
  {
    family: 'Microsoft Teams (legacy outlook.office.com)',
    url: TEAMS.replace('contoso.webhook.office.com/webhookb2', 'outlook.office.com/webhook'),
    secret: TEAMS_SECRET,
  },
];

/** How a webhook URL travels: as it is, and encoded the ways request URLs and JSON encode it. */
const CARRIERS: readonly { way: string; carry: (url: string) => string }[] = [
  { way: 'in a sentence', carry: (url) => `POST ${url} failed with 404` },
  {
    way: 'percent-encoded in a request URL',
    carry: (url) => `GET http://127.0.0.1:4010/page?url=${encodeURIComponent(url)}&lang=en`,
  },
  {
    way: 'twice percent-encoded',
    carry: (url) => `next=${encodeURIComponent(`/go?to=${encodeURIComponent(url)}`)}`,
  },
  { way: 'with JSON-escaped slashes', carry: (url) => `{"url":"${url.replace(/\//g, '\\/')}"}` },
  { way: 'in upper case', carry: (url) => url.toUpperCase() },
];

describe('incoming-webhook URLs (the path is the credential)', () => {
  describe.each(WEBHOOKS)('$family', ({ url, secret }) => {
    it.each(CARRIERS)('hides the path $way', ({ carry }) => {
      const text = carry(url);
      const hidden = text.includes(secret) ? secret : secret.toUpperCase();
      const redacted = defaultRedactor.redactText(text);
      expect(redacted).not.toContain(hidden);
      expect(redacted).toContain(REDACTED);
    });

    it('hides it in a failure from a fetch-like response, an axios-like error and an HTTP exception response', () => {
      const thrown = [
        { ok: false, status: 404, statusText: 'Not Found', url },
        Object.assign(new Error('Request failed with status code 403'), {
          response: { status: 403, headers: {} },
          config: { method: 'post', url },
        }),
        Object.assign(new Error(`Bad Gateway: ${url}`), {
          status: 502,
          response: { statusCode: 502, message: `upstream ${url} said no` },
        }),
      ];
      for (const error of thrown) {
        const failure = createToolFailure(classifyError(error), {
          tool: 'notify',
          callId: 'c1',
          durationMs: 1,
        });
        expect(JSON.stringify(failure)).not.toContain(secret);
        expect(renderFailureText(failure)).not.toContain(secret);
      }
    });
  });

  it('keeps the host and the kind of hook, so the failure still says where it went', () => {
    expect(defaultRedactor.redactText(`POST ${SLACK} failed`)).toBe(
      `POST https://hooks.slack.com/services/${REDACTED} failed`,
    );
    expect(defaultRedactor.redactText(DISCORD)).toBe(
      `https://discord.com/api/webhooks/${REDACTED}`,
    );
    expect(defaultRedactor.redactText(`${TEAMS} (410 Gone)`)).toBe(
      `https://contoso.webhook.office.com/webhookb2/${REDACTED} (410 Gone)`,
    );
  });

  it('hides any path of URL characters and escapes, whatever follows it', () => {
    const pathChar = fc.constantFrom(...'abcXYZ019-_.~+@=/'.split(''), '%40', '%2F');
    fc.assert(
      fc.property(
        fc.array(pathChar, { minLength: 12, maxLength: 60 }).map((chars) => chars.join('')),
        fc.constantFrom(' ', '"', '?x=1', '#top', "'", ')', '\n'),
        (secret, after) => {
          const text = `https://hooks.slack.com/services/T01/B02/${secret}${after}`;
          expect(defaultRedactor.redactText(text)).toBe(
            `https://hooks.slack.com/services/${REDACTED}${after}`,
          );
        },
      ),
    );
  });

  it('leaves other Slack and Discord URLs alone', () => {
    for (const text of [
      'https://api.slack.com/methods/chat.postMessage',
      'https://discord.com/developers/docs/resources/webhook',
      'https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook',
    ]) {
      expect(defaultRedactor.redactText(text)).toBe(text);
    }
  });
});
