import { BadRequestException, HttpException, InternalServerErrorException } from '@nestjs/common';
import { InvalidInputError, NetworkError } from '@toolshield/core';

/** One way of throwing a text that holds a secret; `make` builds a fresh value each time. */
export interface ThrowWay {
  readonly way: string;
  readonly make: (text: string, secret: string) => unknown;
}

/** Where the model-facing `error` sentence is cut: the long-message way straddles it. */
const CUT = 200;
const FILLER =
  'The upstream returned an unexpected payload while listing invoices for account 4411 and region eu-west-1; ';

/** A message whose secret starts a few characters before the cut and runs past it. */
function straddling(text: string, secret: string): string {
  const at = Math.max(0, text.indexOf(secret));
  const lead = FILLER.repeat(3).slice(0, Math.max(0, CUT - 8 - at - 'Error: '.length));
  return `${lead}${text}`;
}

/** The ways of throwing a secret seen in the wild (issue 13): every one is covered per sample. */
export const THROW_WAYS: readonly ThrowWay[] = [
  { way: 'Error message', make: (text) => new Error(text) },
  {
    way: 'message with prefix and suffix',
    make: (text) => new Error(`Upstream call failed: ${text} (while syncing orders)`),
  },
  { way: 'thrown string', make: (text) => text },
  { way: 'thrown plain object', make: (text) => ({ code: 'E_AUTH', detail: text }) },
  {
    way: 'object with nested JSON text',
    make: (text) => ({ error: JSON.stringify({ error: { detail: text } }) }),
  },
  { way: 'HttpException with a string', make: (text) => new HttpException(text, 502) },
  {
    way: 'HttpException with a message array',
    make: (text) => new BadRequestException([`config ${text}`, 'name must be a string']),
  },
  {
    way: 'HttpException with an object',
    make: (text) =>
      new HttpException({ statusCode: 401, message: text, error: 'Unauthorized' }, 401),
  },
  {
    way: 'HttpException 500 with a message array',
    make: (text) => new InternalServerErrorException([text]),
  },
  {
    way: 'ToolError metadata',
    make: (text) =>
      new NetworkError('The upstream reset the connection.', {
        metadata: { responseBody: text, request: { headers: { 'x-debug': text } } },
      }),
  },
  {
    way: 'issues',
    make: (text) =>
      new InvalidInputError('Arguments failed validation.', {
        issues: [{ path: `config.${text}`, message: `is invalid: ${text}` }],
      }),
  },
  {
    way: 'Zod-style issues',
    make: (text) => ({
      name: 'ZodError',
      issues: [{ path: ['auth'], message: text, code: 'custom' }],
    }),
  },
  {
    way: 'cause chain',
    make: (text) =>
      new Error('Syncing orders failed', {
        cause: Object.assign(new Error(`socket closed: ${text}`), { code: 'ECONNRESET' }),
      }),
  },
  {
    way: 'Node system error',
    make: (text) =>
      Object.assign(new Error(`connect ECONNREFUSED 10.0.0.7:443 ${text}`), {
        code: 'ECONNREFUSED',
        errno: -111,
        syscall: 'connect',
        address: '10.0.0.7',
        port: 443,
      }),
  },
  {
    way: 'fetch-like Response',
    make: (text) => ({
      ok: false,
      status: 401,
      statusText: 'Unauthorized',
      url: `https://api.example.com/v1/me?${text}`,
    }),
  },
  {
    way: 'axios-like error with config',
    make: (text) =>
      Object.assign(new Error('Request failed with status code 403'), {
        isAxiosError: true,
        response: { status: 403, headers: {} },
        config: { method: 'get', url: `https://api.example.com/v1/orders?${text}` },
      }),
  },
  {
    way: 'URL in message',
    make: (text) =>
      new Error(`GET https://api.example.com/v1/orders?debug=1&${text} failed with 401`),
  },
  {
    way: 'long message straddling the cut',
    make: (text, secret) => new Error(straddling(text, secret)),
  },
  {
    way: 'JSON-escaped text',
    make: (text) => new Error(`upstream said: ${JSON.stringify(JSON.stringify({ detail: text }))}`),
  },
  {
    way: 'AggregateError',
    make: (text) =>
      new AggregateError(
        [Object.assign(new Error(text), { code: 'ETIMEDOUT' })],
        'All attempts failed',
      ),
  },
];
