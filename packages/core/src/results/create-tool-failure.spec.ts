import { describe, expect, it } from '@jest/globals';
import { CircuitOpenError } from '../errors/circuit-open.error.js';
import { InternalToolError } from '../errors/internal.error.js';
import { InvalidInputError } from '../errors/invalid-input.error.js';
import { RateLimitedError } from '../errors/rate-limited.error.js';
import { ToolNotFoundError } from '../errors/tool-not-found.error.js';
import { ToolTimeoutError } from '../errors/timeout.error.js';
import { TOOL_ERROR_TYPES } from '../errors/tool-error-type.js';
import { createToolError } from '../classification/create-tool-error.js';
import { createToolFailure } from './create-tool-failure.js';
import { REDACTED } from '../redaction/redaction-rule.js';
import { createRedactor } from '../redaction/redactor.js';

const ctx = { tool: 'get_weather', callId: 'call_1', durationMs: 1234, retryCount: 2, retryMax: 2 };

describe('createToolFailure', () => {
  it('produces exactly the ToolFailure shape', () => {
    const error = new RateLimitedError('Too many requests', {
      retryAfterMs: 1999.2,
      metadata: { statusCode: 429, url: 'https://api.example.com/?api_key=abc' },
    });
    expect(createToolFailure(error, { ...ctx, metadata: { conversationId: 'c1' } })).toEqual({
      success: false,
      tool: 'get_weather',
      callId: 'call_1',
      error: 'Too many requests.',
      errorType: 'rate_limited',
      recoverable: true,
      retryCount: 2,
      retryMax: 2,
      retryAfterMs: 2000,
      suggestions: ['Wait 2s before using this tool again, or use another tool.'],
      metadata: {
        statusCode: 429,
        url: `https://api.example.com/?api_key=${REDACTED}`,
        conversationId: 'c1',
        attempts: 3,
        durationMs: 1234,
      },
    });
  });

  it('keeps one redacted, capped line of the message', () => {
    const stacky = new InternalToolError(
      `Cannot read properties of undefined (reading 'x') with key sk-ant-api03-AbCdEf0123456789_xyz\n    at handler (/app/tool.js:10:5)`,
    );
    const failure = createToolFailure(stacky, { tool: 't', callId: 'c', durationMs: 1 });
    expect(failure.error).toBe(
      `Cannot read properties of undefined (reading 'x') with key ${REDACTED}.`,
    );
    expect(failure).toMatchObject({
      retryCount: 0,
      retryMax: 0,
      metadata: { attempts: 1, durationMs: 1 },
    });
    expect(createToolFailure(new InternalToolError('x'.repeat(500)), ctx).error).toHaveLength(200);
    expect(createToolFailure(new InternalToolError('  \n '), ctx).error).toBe('The tool failed.');
    expect(createToolFailure(new InternalToolError('Done!'), ctx).error).toBe('Done!');
  });

  it('uses a custom redactor and length', () => {
    const failure = createToolFailure(
      new InternalToolError('acme_secret1 leaked in a long message'),
      ctx,
      {
        redactor: createRedactor([/acme_\w+/]),
        maxErrorLength: 20,
      },
    );
    expect(failure.error).toBe(`${REDACTED} leaked…`);
  });

  it('carries issues, redacted', () => {
    const error = new InvalidInputError('Arguments failed validation.', {
      issues: [{ path: 'token', message: 'token=abc123 is expired', constraint: 'isValid' }],
    });
    expect(createToolFailure(error, ctx)).toMatchObject({
      recoverable: true,
      issues: [{ path: 'token', message: `token=${REDACTED} is expired`, constraint: 'isValid' }],
      suggestions: ['Fix the arguments to match the schema, then call again.'],
    });
    expect(createToolFailure(new InvalidInputError('bad'), ctx)).not.toHaveProperty('issues');
  });

  it('carries available tools and did-you-mean names', () => {
    const error = new ToolNotFoundError(`Unknown tool 'get_wether'.`, {
      availableTools: ['get_weather', 'send_email'],
      didYouMean: ['get_weather'],
    });
    expect(createToolFailure(error, { ...ctx, tool: 'get_wether' })).toMatchObject({
      errorType: 'tool_not_found',
      availableTools: ['get_weather', 'send_email'],
      didYouMean: ['get_weather'],
      suggestions: [`Call 'get_weather' instead.`],
    });
    const bare = createToolFailure(new ToolNotFoundError('Unknown tool.'), ctx);
    expect(bare).not.toHaveProperty('didYouMean');
    expect(bare.suggestions).toEqual(['Call one of the available tools.']);
  });

  it('names the wait of an open circuit, and says recoverable', () => {
    const failure = createToolFailure(
      new CircuitOpenError('Circuit open', { retryAfterMs: 30_000 }),
      ctx,
    );
    expect(failure).toMatchObject({ recoverable: true, retryAfterMs: 30_000 });
    expect(failure.suggestions).toEqual([
      'Do not call this tool for 30s; use another tool meanwhile.',
    ]);
  });

  it('drops a meaningless retryAfterMs', () => {
    expect(
      createToolFailure(new ToolTimeoutError('slow', { retryAfterMs: Number.NaN }), ctx),
    ).not.toHaveProperty('retryAfterMs');
  });

  it('has one or two short suggestions for every type', () => {
    for (const type of TOOL_ERROR_TYPES) {
      const { suggestions } = createToolFailure(createToolError(type, 'x'), ctx);
      expect(suggestions.length).toBeGreaterThanOrEqual(1);
      expect(suggestions.length).toBeLessThanOrEqual(2);
      for (const suggestion of suggestions) expect(suggestion.length).toBeLessThanOrEqual(80);
    }
  });

  it('sends issues and metadata through the same sanitizer as the sentence', () => {
    const stack = new Error('parser blew up').stack ?? '';
    const failure = createToolFailure(
      new InvalidInputError('Arguments failed validation.', {
        issues: Array.from({ length: 60 }, (_, i) => ({ path: `items.${i}`, message: stack })),
        metadata: { stack, body: `{"token":"t0k3n-value-123"}\n${stack}` },
      }),
      ctx,
    );
    expect(failure.issues).toHaveLength(50);
    expect(failure.issues?.[0]).toEqual({ path: 'items.0', message: 'Error: parser blew up' });
    expect(failure.metadata).toEqual({
      body: `{"token":"${REDACTED}"}\nError: parser blew up`,
      attempts: 3,
      durationMs: ctx.durationMs,
    });
  });
});
