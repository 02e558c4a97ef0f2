import { describe, expect, it } from '@jest/globals';
import { REDACTED } from './redaction-rule.js';
import { createRedactor, defaultRedactor } from './redactor.js';

const { redactText, redactValue } = defaultRedactor;

describe('defaultRedactor.redactText', () => {
  it.each([
    ['OpenAI key sk-proj-AbCdEf0123456789xyzXYZ rejected', `OpenAI key ${REDACTED} rejected`],
    ['key sk-ant-api03-AbCdEf0123456789_xyz-XYZ', `key ${REDACTED}`],
    ['token ghp_abcdefghijklmnopqrstuvwxyz0123456789', `token ${REDACTED}`],
    ['slack xoxb-1234567890-abcdefghij', `slack ${REDACTED}`],
    ['aws AKIAIOSFODNN7EXAMPLE denied', `aws ${REDACTED} denied`],
    ['stripe sk_live_abcdefghij1234', `stripe ${REDACTED}`],
    ['Authorization: Bearer abc.def-123_456 failed', `Authorization: Bearer ${REDACTED} failed`],
    ['sent Basic dXNlcjpwYXNzd29yZA==', `sent Basic ${REDACTED}`],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl here', `jwt ${REDACTED} here`],
    [
      'GET https://admin:hunter2@db.example.com/x failed',
      `GET https://admin:${REDACTED}@db.example.com/x failed`,
    ],
    [
      'GET https://api.example.com/v1?city=Paris&api_key=abc123&token=t0k failed',
      `GET https://api.example.com/v1?city=Paris&api_key=${REDACTED}&token=${REDACTED} failed`,
    ],
    ['login with password=hunter2 failed', `login with password=${REDACTED} failed`],
    [
      'body {"password": "hunter2", "user": "bob"}',
      `body {"password": "${REDACTED}", "user": "bob"}`,
    ],
  ])('redacts %j', (text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it.each([
    [
      'aws_secret_access_key=wJalrXUtnFEMIK7MDENGbPxRfiCYzEXAMPLEKEY1',
      `aws_secret_access_key=${REDACTED}`,
    ],
    ['{"SecretAccessKey":"wJalrXUtnFEMIK7MDENG"}', `{"SecretAccessKey":"${REDACTED}"}`],
    ['{\\"token\\":\\"abc123def456\\"}', `{\\"token\\":\\"${REDACTED}\\"}`],
    ["{'password': 'hunter22'}", `{'password': '${REDACTED}'}`],
    [
      'AccountName=acme;AccountKey=a1b2c3d4e5==;EndpointSuffix=x',
      `AccountName=acme;AccountKey=${REDACTED};EndpointSuffix=x`,
    ],
    ['GITHUB_TOKEN_ghp_abcdefghijklmnopqrstuvwxyz0123456789', `GITHUB_TOKEN_${REDACTED}`],
    [
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAAA\n-----END RSA PRIVATE KEY-----\nok',
      `${REDACTED}\nok`,
    ],
    ['cut -----BEGIN PRIVATE KEY-----\\nMIIEvgIBADANBgkqhk', `cut ${REDACTED}`],
    ['Authorization: Bearer abcdefghijklmnopqrstuvwxyz', `Authorization: Bearer ${REDACTED}`],
    ['Invalid token: the signature did not match', 'Invalid token: the signature did not match'],
    [
      '{"token": null, "tokens": 12, "token_type": "Bearer"}',
      '{"token": null, "tokens": 12, "token_type": "Bearer"}',
    ],
  ])('redacts %j by its key or its shape', (text, expected) => {
    expect(redactText(text)).toBe(expected);
  });

  it('runs rules of your own after the built-in ones, with their replacement and hints', () => {
    const redactor = createRedactor([
      { pattern: /(acme_live_)[a-z0-9]{8}/g, replacement: `$1${REDACTED}`, hints: ['acme_live_'] },
    ]);
    expect(redactor.redactText('key acme_live_abcd1234')).toBe(`key acme_live_${REDACTED}`);
    expect(redactor.redactText('nothing here')).toBe('nothing here');
  });

  it('leaves ordinary prose alone', () => {
    const prose =
      'Basic authentication failed for user bob: the token expired (maxTokens 4096, skip-list ok).';
    expect(redactText(prose)).toBe(prose);
  });

  it('adds extra patterns, global or not', () => {
    const redactor = createRedactor([/acme_[a-z0-9]{8}/]);
    expect(redactor.redactText('acme_abcd1234 and acme_efgh5678')).toBe(
      `${REDACTED} and ${REDACTED}`,
    );
  });
});

describe('defaultRedactor.redactValue', () => {
  it('hides secret-named keys at any depth and redacts strings', () => {
    const metadata = {
      statusCode: 401,
      url: 'https://u:p4ss@api.example.com/?apiKey=123',
      headers: {
        Authorization: 'Bearer abcdefgh12',
        'X-Api-Key': 'k',
        cookie: 'sid=1',
        accept: 'json',
      },
      nested: [{ password: 'x', client_secret: 'y', maxTokens: 100, tokenCount: 3 }],
      empty: { token: null },
    };
    expect(redactValue(metadata)).toEqual({
      statusCode: 401,
      url: `https://u:${REDACTED}@api.example.com/?apiKey=${REDACTED}`,
      headers: { Authorization: REDACTED, 'X-Api-Key': REDACTED, cookie: REDACTED, accept: 'json' },
      nested: [{ password: REDACTED, client_secret: REDACTED, maxTokens: 100, tokenCount: 3 }],
      empty: { token: null },
    });
  });

  it('is cycle-safe and JSON-safe, and never throws', () => {
    const circular: Record<string, unknown> = {
      n: 10n,
      when: new Date(0),
      list: new Set([1]),
      map: new Map([[1, 'a']]),
    };
    circular['self'] = circular;
    circular['fn'] = () => 1;
    circular['err'] = new Error('sk-ant-api03-AbCdEf0123456789_xyz');
    circular['bad'] = Number.NaN;
    Object.defineProperty(circular, 'trap', {
      enumerable: true,
      get(): never {
        throw new Error('getter');
      },
    });
    expect(redactValue(circular)).toEqual({
      n: '10',
      when: '1970-01-01T00:00:00.000Z',
      list: [1],
      map: { 1: 'a' },
      self: '[Circular]',
      err: { name: 'Error', message: REDACTED },
      bad: 'NaN',
      trap: '[Unreadable]',
    });
    const shared = { a: 1 };
    expect(redactValue({ x: shared, y: shared })).toEqual({ x: { a: 1 }, y: { a: 1 } });
  });

  it('keeps a __proto__ key as data, never as a prototype', () => {
    const copied = redactValue(JSON.parse('{"__proto__": {"polluted": true}}')) as object;
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.hasOwn(copied, '__proto__')).toBe(true);
  });

  it('truncates very deep values', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 40; i++) deep = { deep };
    expect(JSON.stringify(redactValue(deep))).toContain('[Truncated]');
  });
});
