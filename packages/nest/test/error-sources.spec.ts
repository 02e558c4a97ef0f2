import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  BadGatewayException,
  BadRequestException,
  ConflictException,
  ForbiddenException,
  GatewayTimeoutException,
  HttpException,
  InternalServerErrorException,
  NotFoundException,
  ServiceUnavailableException,
  UnauthorizedException,
  UnprocessableEntityException,
} from '@nestjs/common';
import {
  NetworkError,
  RateLimitedError,
  type ToolErrorType,
  type ToolFailure,
} from '@toolshield/core';
import { IsEmail, validate } from 'class-validator';
import { readFile } from 'node:fs/promises';
import { createToolApp } from './fixtures/create-app.js';
import { ThrowingTools } from './fixtures/throwing.tools.js';

class Signup {
  @IsEmail() email = 'not-an-email';
}

/**
 * The shape of @nestjs/throttler's exception (an HttpException with status 429). The real
 * package is CommonJS requiring ESM @nestjs/common in a cycle, which Jest's ESM runtime
 * refuses to load, so the spec rebuilds it.
 */
class ThrottlerException extends HttpException {
  constructor() {
    super('ThrottlerException: Too Many Requests', 429);
  }
}

const systemError = (code: string, message: string) =>
  Object.assign(new Error(message), { code, errno: -1, syscall: 'connect' });

const circular = (): Record<string, unknown> => {
  const value: Record<string, unknown> = { name: 'loop' };
  value.self = value;
  return value;
};

describe('every error source becomes one ToolFailure of the closed taxonomy', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  let tools: ThrowingTools;

  beforeAll(async () => {
    ctx = await createToolApp([ThrowingTools]);
    tools = ctx.moduleRef.get(ThrowingTools);
  });
  afterAll(() => ctx.close());

  const failureFor = async (thrown: unknown): Promise<ToolFailure> => {
    tools.next = thrown;
    const outcome = await ctx.executor.execute({ id: 'call_x', name: 'throwing', arguments: '{}' });
    expect(outcome.success).toBe(false);
    return outcome as ToolFailure;
  };

  const cases: [string, () => unknown, ToolErrorType][] = [
    ['our NetworkError', () => new NetworkError('upstream reset the connection'), 'network'],
    [
      'our RateLimitedError',
      () => new RateLimitedError('slow down', { retryAfterMs: 1500 }),
      'rate_limited',
    ],
    [
      'BadRequestException (400)',
      () => new BadRequestException('city is required'),
      'invalid_input',
    ],
    ['UnauthorizedException (401)', () => new UnauthorizedException(), 'permission_denied'],
    ['ForbiddenException (403)', () => new ForbiddenException(), 'permission_denied'],
    ['NotFoundException (404)', () => new NotFoundException('no such order'), 'not_found'],
    ['ConflictException (409)', () => new ConflictException('version mismatch'), 'conflict'],
    [
      'UnprocessableEntityException (422)',
      () => new UnprocessableEntityException(),
      'invalid_input',
    ],
    ['HttpException 429', () => new HttpException('Too Many Requests', 429), 'rate_limited'],
    ['ThrottlerException', () => new ThrottlerException(), 'rate_limited'],
    [
      'InternalServerErrorException (500)',
      () => new InternalServerErrorException(),
      'upstream_unavailable',
    ],
    ['BadGatewayException (502)', () => new BadGatewayException(), 'upstream_unavailable'],
    [
      'ServiceUnavailableException (503)',
      () => new ServiceUnavailableException(),
      'upstream_unavailable',
    ],
    ['GatewayTimeoutException (504)', () => new GatewayTimeoutException(), 'upstream_unavailable'],
    ['ECONNRESET', () => systemError('ECONNRESET', 'read ECONNRESET'), 'network'],
    [
      'ECONNREFUSED',
      () => systemError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:1'),
      'network',
    ],
    ['ENOTFOUND', () => systemError('ENOTFOUND', 'getaddrinfo ENOTFOUND api.invalid'), 'network'],
    ['EAI_AGAIN', () => systemError('EAI_AGAIN', 'getaddrinfo EAI_AGAIN api.invalid'), 'network'],
    ['EPIPE', () => systemError('EPIPE', 'write EPIPE'), 'network'],
    ['ETIMEDOUT', () => systemError('ETIMEDOUT', 'connect ETIMEDOUT'), 'timeout'],
    ['EACCES', () => systemError('EACCES', 'open EACCES /etc/shadow'), 'permission_denied'],
    ['a real ENOENT', () => readFile('/definitely/not/here.json'), 'not_found'],
    ['a real undici "fetch failed"', () => fetch('http://127.0.0.1:1/'), 'network'],
    [
      'axios-style 503',
      () =>
        Object.assign(new Error('Request failed with status code 503'), {
          isAxiosError: true,
          response: { status: 503, headers: {} },
        }),
      'upstream_unavailable',
    ],
    ['AbortError', () => new DOMException('This operation was aborted', 'AbortError'), 'cancelled'],
    ['TimeoutError', () => new DOMException('The operation timed out.', 'TimeoutError'), 'timeout'],
    ['a JSON SyntaxError in the tool body', () => JSON.parse('{"a":'), 'invalid_output'],
    [
      'class-validator ValidationError[]',
      () => validate(new Signup()).then((errors) => Promise.reject(errors)),
      'invalid_input',
    ],
    ['a thrown string', () => 'boom', 'internal'],
    ['undefined', () => undefined, 'internal'],
    ['null', () => null, 'internal'],
    ['a plain object', () => ({ reason: 'nope' }), 'internal'],
    ['a circular object', circular, 'internal'],
    ['a plain Error', () => new Error('bug in the tool'), 'internal'],
  ];

  it.each(cases)('%s', async (_label, makeThrown, type) => {
    const failure = await failureFor(async () => {
      throw await makeThrown();
    });
    expect(failure.errorType).toBe(type);
    expect(failure).toMatchObject({
      success: false,
      tool: 'throwing',
      callId: 'call_x',
      retryCount: 0,
    });
    expect(typeof failure.error).toBe('string');
    expect(failure.error.length).toBeGreaterThan(0);
    expect(failure.suggestions.length).toBeGreaterThan(0);
    expect(() => JSON.stringify(failure)).not.toThrow();
  });

  it('keeps Retry-After from an axios-style 429 in retryAfterMs', async () => {
    const failure = await failureFor(
      Object.assign(new Error('Request failed with status code 429'), {
        response: { status: 429, headers: { 'retry-after': '3' } },
      }),
    );
    expect(failure.errorType).toBe('rate_limited');
    expect(failure.retryAfterMs).toBe(3000);
    expect(failure.recoverable).toBe(true);
  });

  it('redacts secrets and never shows the model a stack trace', async () => {
    const failure = await failureFor(
      Object.assign(
        new Error(
          'GET https://admin:hunter2@api.example.com/v1?api_key=sk-live-1234567890abcdef failed with Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
        ),
        { config: { headers: { Authorization: 'Bearer abc' } } },
      ),
    );
    const text = JSON.stringify(failure);
    for (const secret of ['hunter2', 'sk-live-1234567890abcdef', 'eyJhbGciOiJIUzI1NiJ9']) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/\bat .*\.(ts|js):\d+/);
  });

  it('answers an unserialisable return value with invalid_output', async () => {
    for (const value of [10n, circular()]) {
      tools.next = value;
      const outcome = (await ctx.executor.execute({ id: 'o', name: 'returning' })) as ToolFailure;
      expect(outcome.errorType).toBe('invalid_output');
    }
  });
});
