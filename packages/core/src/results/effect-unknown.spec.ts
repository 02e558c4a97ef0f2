import { describe, expect, it } from '@jest/globals';
import {
  CancelledError,
  NetworkError,
  ToolTimeoutError,
  classifyError,
  createToolError,
  createToolFailure,
  renderToolOutcomeContent,
  toAnthropicToolResult,
  toMcpCallToolResult,
  toOpenAIToolMessage,
  type ToolFailure,
  type ToolOutcomeContext,
} from '../internal.js';

const payment: ToolOutcomeContext = {
  tool: 'pay_invoice',
  callId: 'call_3',
  durationMs: 200,
  idempotencyKey: 'run_7:call_3',
};
const systemError = (code: string, message = code) => Object.assign(new Error(message), { code });
/** Wording that invites the model to make the call again. */
const INVITES_A_REPEAT = /\bRetry\b|Retrying may help|call again/i;

/** Every text the model may be shown for a failure: each rendering, each format. */
function everythingTheModelReads(failure: ToolFailure): string[] {
  return [
    toOpenAIToolMessage(failure).content,
    toOpenAIToolMessage(failure, { failureFormat: 'json' }).content,
    toAnthropicToolResult(failure).content,
    toAnthropicToolResult(failure, { failureFormat: 'json' }).content,
    ...toMcpCallToolResult(failure).content.map((part) => part.text),
    renderToolOutcomeContent(failure),
  ];
}

describe('a failure after the request of a call with side effects may have left', () => {
  it.each([
    ['an attempt timeout', new ToolTimeoutError('Timed out after 200 ms.')],
    [
      'a connection reset after sending',
      classifyError(systemError('ECONNRESET', 'socket hang up')),
    ],
    ['a broken pipe', classifyError(systemError('EPIPE'))],
    [
      'a dropped socket under fetch',
      classifyError(new TypeError('fetch failed', { cause: systemError('UND_ERR_SOCKET') })),
    ],
    ['a cancellation by the caller', new CancelledError('The caller aborted the call.')],
    [
      'a gateway timeout',
      classifyError(Object.assign(new Error('Gateway Timeout'), { status: 504 })),
    ],
  ])('%s: says it may have taken effect, never to repeat it, and carries the key', (_, error) => {
    const failure = createToolFailure(error, payment);
    expect(failure).toMatchObject({
      effect: 'unknown',
      recoverable: false,
      suggestions: [
        'Check whether it took effect with a read tool or ask the user; do not repeat it.',
      ],
      metadata: { idempotencyKey: 'run_7:call_3' },
    });
    for (const text of everythingTheModelReads(failure)) {
      expect(text).toMatch(/may have taken effect|"effect":"unknown"/);
      expect(text).toContain('do not repeat it');
      expect(text).not.toMatch(INVITES_A_REPEAT);
    }
  });

  it('reads, in the short text, what happened and what to do instead', () => {
    const failure = createToolFailure(new ToolTimeoutError('Timed out after 200 ms.'), payment);
    expect(toOpenAIToolMessage(failure).content).toBe(
      [
        'Tool pay_invoice failed: timeout, attempt 1/1.',
        'Timed out after 200 ms.',
        'It may have taken effect.',
        'Next: Check whether it took effect with a read tool or ask the user; do not repeat it.',
      ].join('\n'),
    );
  });

  it.each([
    ['refused', systemError('ECONNREFUSED')],
    ['unreachable', systemError('EHOSTUNREACH')],
    ['refused under fetch', new TypeError('fetch failed', { cause: systemError('ECONNREFUSED') })],
    ['a connect timeout', systemError('UND_ERR_CONNECT_TIMEOUT')],
  ])('a connection %s never sent the request: safe to call again', (_, thrown) => {
    const failure = createToolFailure(classifyError(thrown), payment);
    expect(failure).not.toHaveProperty('effect');
    expect(failure).toMatchObject({ recoverable: true });
    expect(failure.metadata).not.toHaveProperty('idempotencyKey');
  });

  it('leaves a tool without side effects, and failures that never reached the upstream, as they were', () => {
    const read = { ...payment, tool: 'get_invoice', sideEffects: false };
    expect(createToolFailure(new ToolTimeoutError('Timed out after 200 ms.'), read)).toMatchObject({
      recoverable: true,
      suggestions: ['Retry once; if it times out again, narrow the request.'],
    });
    expect(
      createToolFailure(createToolError('upstream_unavailable', 'HTTP 503'), payment),
    ).not.toHaveProperty('effect');
    expect(
      createToolFailure(createToolError('rate_limited', 'HTTP 429'), payment),
    ).not.toHaveProperty('effect');
  });

  it('is the default for a call whose tool says nothing about side effects', () => {
    const { idempotencyKey: _key, ...unkeyed } = payment;
    const failure = createToolFailure(new ToolTimeoutError('Timed out.'), unkeyed);
    expect(failure).toMatchObject({ effect: 'unknown', recoverable: false });
    expect(failure.metadata).not.toHaveProperty('idempotencyKey');
  });
});

describe("a tool's own error", () => {
  it('NetworkError with retryable: false is not recoverable, and is not told to retry', () => {
    const failure = createToolFailure(
      new NetworkError('The card network refused the connection.', {
        retryable: false,
        metadata: { code: 'ECONNREFUSED' },
      }),
      payment,
    );
    expect(failure).toMatchObject({
      recoverable: false,
      suggestions: ['Do not repeat this call; use another tool, or tell the user.'],
    });
    for (const text of everythingTheModelReads(failure)) expect(text).not.toMatch(INVITES_A_REPEAT);
  });

  it('sets recoverable and the suggestions the model reads, even after a call that may have taken effect', () => {
    const failure = createToolFailure(
      new ToolTimeoutError('The bank did not answer; nothing was charged.', {
        recoverable: true,
        suggestions: ['Call it again with the same arguments; token=abc123 stays valid.'],
      }),
      payment,
    );
    expect(failure).not.toHaveProperty('effect');
    expect(failure).toMatchObject({
      recoverable: true,
      suggestions: ['Call it again with the same arguments; token=[REDACTED] stays valid.'],
    });
  });

  it('gives its own suggestions to a call that may have taken effect, which stays unrecoverable', () => {
    const failure = createToolFailure(
      new ToolTimeoutError('Timed out.', {
        suggestions: ['Look the payment up with get_payment.'],
      }),
      payment,
    );
    expect(failure).toMatchObject({
      effect: 'unknown',
      recoverable: false,
      suggestions: ['Look the payment up with get_payment.'],
    });
    expect(toOpenAIToolMessage(failure).content).toContain(
      'It may have taken effect.\nNext: Look the payment up with get_payment.',
    );
  });
});
