import { readFileSync } from 'node:fs';
import { HTTP_STATUS_CASES } from './http-status-cases.test.js';
import { describe, expect, it } from '@jest/globals';
import { InvalidInputError } from '../errors/invalid-input.error.js';
import { NetworkError } from '../errors/network.error.js';
import { RateLimitedError } from '../errors/rate-limited.error.js';
import { ToolError } from '../errors/tool-error.js';
import { classifyError } from './classify-error.js';
import { thrownBy } from '../testing/thrown-by.test.js';

/** The duck-typed surface of Nest's HttpException (core must not import @nestjs/*). */
class FakeHttpException extends Error {
  constructor(
    private readonly body: string | Record<string, unknown>,
    private readonly status: number,
  ) {
    super(typeof body === 'string' ? body : 'Http Exception');
  }
  getStatus(): number {
    return this.status;
  }
  getResponse(): string | Record<string, unknown> {
    return this.body;
  }
}

/** Nest's ThrottlerException: a 429 HttpException. */
class FakeThrottlerException extends FakeHttpException {
  constructor() {
    super('ThrottlerException: Too Many Requests', 429);
  }
}

function systemError(code: string, message = `${code} happened`): Error {
  return Object.assign(new Error(message), { code });
}

function axiosError(status: number, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(`Request failed with status code ${status}`), {
    code: status >= 500 ? 'ERR_BAD_RESPONSE' : 'ERR_BAD_REQUEST',
    config: { url: 'https://api.example.com/v1/weather', method: 'get' },
    response: { status, headers, data: {} },
  });
}

const NOW = Date.parse('2026-11-22T10:00:00Z');

describe('classifyError', () => {
  it('describes a thrown fetch Response by its status, with Retry-After honoured', () => {
    const limited = classifyError(
      new Response(null, {
        status: 429,
        statusText: 'Too Many Requests',
        headers: { 'retry-after': '3' },
      }),
    );
    expect(limited).toMatchObject({ type: 'rate_limited', retryAfterMs: 3000 });
    expect(limited.message).toBe('HTTP 429 Too Many Requests');
    const down = classifyError({ status: 503, url: 'https://api.example.com/v1', method: 'get' });
    expect(down).toMatchObject({
      type: 'upstream_unavailable',
      message: 'HTTP 503 from GET https://api.example.com/v1',
    });
  });

  it('returns our own errors as they are', () => {
    const error = new RateLimitedError('slow down', { retryAfterMs: 10 });
    expect(classifyError(error)).toBe(error);
  });

  it('checks user rules first, skipping rules that throw or pass', () => {
    const mine = new NetworkError('mapped');
    const rules = [
      (): never => {
        throw new Error('broken rule');
      },
      () => undefined,
      (error: unknown) => (error instanceof RangeError ? 'limit_exceeded' : undefined),
      (error: unknown) => (error instanceof TypeError ? mine : undefined),
    ] as const;
    expect(classifyError(new RangeError('too big'), { rules })).toMatchObject({
      type: 'limit_exceeded',
      message: 'too big',
    });
    expect(classifyError(new TypeError('x'), { rules })).toBe(mine);
    expect(classifyError(new RateLimitedError('x'), { rules: [() => 'conflict'] }).type).toBe(
      'conflict',
    );
  });

  describe('HTTP statuses', () => {
    it.each(HTTP_STATUS_CASES)('maps a Nest HttpException with status %i to %s', (status, type) => {
      const classified = classifyError(new FakeHttpException('nope', status));
      expect(classified.type).toBe(type);
      expect(classified.metadata).toEqual({ statusCode: status });
    });

    it('maps ThrottlerException to rate_limited', () => {
      expect(classifyError(new FakeThrottlerException())).toMatchObject({
        type: 'rate_limited',
        message: 'ThrottlerException: Too Many Requests',
        retryable: true,
      });
    });

    it('turns a ValidationPipe rejection into issues', () => {
      const rejection = new FakeHttpException(
        {
          statusCode: 400,
          error: 'Bad Request',
          message: ['city must be a string', 'address.zip must be a postal code'],
        },
        400,
      );
      const classified = classifyError(rejection) as InvalidInputError;
      expect(classified).toBeInstanceOf(InvalidInputError);
      expect(classified.message).toBe('Arguments failed validation.');
      expect(classified.issues).toEqual([
        { path: 'city', message: 'must be a string' },
        { path: 'address.zip', message: 'must be a postal code' },
      ]);
    });

    it('reads axios-style errors with url, method and Retry-After', () => {
      const classified = classifyError(axiosError(429, { 'retry-after': '3' }));
      expect(classified).toMatchObject({
        type: 'rate_limited',
        retryAfterMs: 3000,
        message: 'Request failed with status code 429',
      });
      expect(classified.metadata).toEqual({
        statusCode: 429,
        method: 'GET',
        url: 'https://api.example.com/v1/weather',
      });
      expect(
        classifyError(axiosError(503, { 'Retry-After': 'Sun, 22 Nov 2026 10:00:05 GMT' }), {
          now: () => NOW,
        }).retryAfterMs,
      ).toBe(5000);
    });

    it('reads status and statusCode properties and SDK-style headers', () => {
      const sdk = Object.assign(new Error('429 Rate limit reached for gpt-x'), {
        status: 429,
        headers: new Headers({ 'retry-after-ms': '250' }),
      });
      expect(classifyError(sdk)).toMatchObject({ type: 'rate_limited', retryAfterMs: 250 });
      expect(classifyError(Object.assign(new Error('gone'), { statusCode: 404 })).type).toBe(
        'not_found',
      );
      expect(classifyError(Object.assign(new Error('exit'), { status: 1 })).type).toBe('internal');
    });
  });

  describe('error codes', () => {
    it.each([
      ['ECONNRESET', 'network'],
      ['ECONNREFUSED', 'network'],
      ['ENOTFOUND', 'network'],
      ['EAI_AGAIN', 'network'],
      ['EPIPE', 'network'],
      ['EHOSTUNREACH', 'network'],
      ['ENETUNREACH', 'network'],
      ['ETIMEDOUT', 'timeout'],
      ['ESOCKETTIMEDOUT', 'timeout'],
      ['UND_ERR_CONNECT_TIMEOUT', 'timeout'],
      ['UND_ERR_HEADERS_TIMEOUT', 'timeout'],
      ['ENOENT', 'not_found'],
      ['EACCES', 'permission_denied'],
      ['EPERM', 'permission_denied'],
      ['EOPENBREAKER', 'circuit_open'],
      ['ESEMLOCKED', 'bulkhead_full'],
    ])('maps %s to %s', (code, type) => {
      const classified = classifyError(systemError(code));
      expect(classified.type).toBe(type);
      expect(classified.metadata).toEqual({ code });
    });

    it('does not retry ENOTFOUND (the name does not resolve) but does retry EAI_AGAIN', () => {
      const missing = classifyError(systemError('ENOTFOUND'));
      // Calling again within seconds does not make the name exist either.
      expect(missing).toMatchObject({ type: 'network', retryable: false, recoverable: false });
      expect(classifyError(systemError('EAI_AGAIN'))).toMatchObject({ retryable: true });
      // Through undici's wrapper, as fetch() throws it.
      const viaFetch = new TypeError('fetch failed', { cause: systemError('ENOTFOUND') });
      expect(classifyError(viaFetch)).toMatchObject({ type: 'network', retryable: false });
    });

    it('classifies a real ENOENT', () => {
      let thrown: unknown;
      try {
        readFileSync('/definitely/not/here.json');
      } catch (error) {
        thrown = error;
      }
      expect(classifyError(thrown)).toMatchObject({
        type: 'not_found',
        metadata: { code: 'ENOENT' },
      });
    });
  });

  describe('cause chains', () => {
    it('looks through undici "fetch failed" to its cause', () => {
      const refused = systemError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:3000');
      const classified = classifyError(new TypeError('fetch failed', { cause: refused }));
      expect(classified).toMatchObject({
        type: 'network',
        message: 'fetch failed: connect ECONNREFUSED 127.0.0.1:3000',
      });
      expect(classified.cause).toBeInstanceOf(TypeError);

      const slow = Object.assign(new Error('Connect Timeout Error'), {
        name: 'ConnectTimeoutError',
        code: 'UND_ERR_CONNECT_TIMEOUT',
      });
      expect(classifyError(new TypeError('fetch failed', { cause: slow })).type).toBe('timeout');
      expect(classifyError(new TypeError('fetch failed')).type).toBe('network');
    });

    it('looks into AggregateErrors and returns a ToolError found in the chain', () => {
      const aggregate = new AggregateError([systemError('ECONNREFUSED')], 'all attempts failed');
      expect(classifyError(aggregate).type).toBe('network');
      const inner = new RateLimitedError('quota');
      expect(classifyError(new Error('wrapped', { cause: inner }))).toBe(inner);
    });

    it('keeps the outer message when it already says it all', () => {
      const cause = systemError('ECONNRESET', 'socket hang up');
      expect(classifyError(new Error('upstream said: socket hang up', { cause })).message).toBe(
        'upstream said: socket hang up',
      );
    });

    it('stops on cyclic and very long chains', () => {
      const a = new Error('a');
      const b = new Error('b', { cause: a });
      (a as { cause?: unknown }).cause = b;
      expect(classifyError(a).type).toBe('internal');
      let deep: Error = systemError('ECONNRESET');
      for (let i = 0; i < 20; i++) deep = new Error(`layer ${i}`, { cause: deep });
      expect(classifyError(deep).type).toBe('internal');
    });
  });

  describe('aborts and parse errors', () => {
    it('maps AbortError to cancelled and TimeoutError to timeout', () => {
      expect(classifyError(new DOMException('This operation was aborted', 'AbortError')).type).toBe(
        'cancelled',
      );
      expect(classifyError(new DOMException('The operation timed out.', 'TimeoutError')).type).toBe(
        'timeout',
      );
      const controller = new AbortController();
      controller.abort();
      expect(classifyError(controller.signal.reason).type).toBe('cancelled');
    });

    it('treats an abort caused by a deadline as a timeout', () => {
      const deadline = new DOMException('The operation timed out.', 'TimeoutError');
      const abort = Object.assign(new Error('The operation was aborted', { cause: deadline }), {
        name: 'AbortError',
        code: 'ABORT_ERR',
      });
      expect(classifyError(abort).type).toBe('timeout');
    });

    it('blames a JSON SyntaxError from the tool body on the upstream, never on the model', () => {
      const parseError = thrownBy(() =>
        JSON.parse('<!DOCTYPE html><title>503 Service Unavailable</title>'),
      );
      const classified = classifyError(parseError);
      expect(classified.type).toBe('invalid_output');
      expect(classified.message).toMatch(
        /^The upstream's answer is not valid JSON: Unexpected token/,
      );
      expect(classifyError(new SyntaxError('Invalid regular expression')).type).toBe('internal');
    });

    it('takes a known 5xx status next to the SyntaxError as upstream_unavailable', () => {
      const parseError = new SyntaxError('Unexpected end of JSON input');
      const wrapped = Object.assign(
        new Error('Weather service answered HTTP 503', { cause: parseError }),
        {
          status: 503,
        },
      );
      expect(classifyError(wrapped)).toMatchObject({
        type: 'upstream_unavailable',
        metadata: { statusCode: 503 },
      });
    });

    it('maps a thrown array of class-validator errors to invalid_input with issues', () => {
      const classified = classifyError([
        { property: 'email', constraints: { isEmail: 'email must be an email' }, children: [] },
      ]) as InvalidInputError;
      expect(classified.type).toBe('invalid_input');
      expect(classified.issues).toEqual([
        { path: 'email', message: 'must be an email', constraint: 'isEmail' },
      ]);
    });
  });

  describe('thrown non-errors', () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular['self'] = circular;
    const hostile = Object.defineProperty({}, 'message', {
      get(): never {
        throw new Error('getter');
      },
      enumerable: true,
    });
    const { proxy: revoked, revoke } = Proxy.revocable({}, {});
    revoke();

    it.each([
      ['a string', 'disk on fire', 'disk on fire'],
      ['a multi-line string', 'first line\n    at stack (x.js:1:1)', 'first line'],
      ['a number', 42, 'Non-error value thrown: 42'],
      ['undefined', undefined, 'Non-error value thrown: undefined'],
      ['null', null, 'Non-error value thrown: null'],
      ['a plain object', { reason: 'bad' }, 'Non-error object thrown: {"reason":"bad"}'],
      ['a circular object', circular, 'Non-error object thrown: [object loop]'],
      ['an object whose getters throw', hostile, 'Non-error object thrown: [object Object]'],
      ['a Symbol', Symbol('why'), 'Non-error value thrown: Symbol(why)'],
    ])('maps %s to internal with a safe message', (_label, value, message) => {
      const classified = classifyError(value);
      expect(classified).toBeInstanceOf(ToolError);
      expect(classified.type).toBe('internal');
      expect(classified.message).toBe(message);
    });

    it('survives a revoked proxy', () => {
      expect(classifyError(revoked).type).toBe('internal');
    });

    it('keeps messages bounded, but long enough to be redacted before the sentence is cut', () => {
      expect(classifyError(new Error('x'.repeat(1000))).message).toHaveLength(1000);
      expect(classifyError(new Error('x'.repeat(10_000))).message.length).toBeLessThanOrEqual(8192);
    });

    it('keeps the first line that is not a stack frame', () => {
      const thrown = new Error(
        '\n    at run (/app/x.js:1:2)\nreal reason\n    at main (/app/y.js:3:4)',
      );
      expect(classifyError(thrown).message).toBe('real reason');
    });
  });
});
