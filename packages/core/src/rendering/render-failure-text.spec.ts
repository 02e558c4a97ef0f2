import { describe, expect, it } from '@jest/globals';
import { encode } from 'gpt-tokenizer';
import { parseToolArguments } from '../arguments/parse-tool-arguments.js';
import { suggestToolNames } from '../arguments/suggest-tool-names.js';
import { classifyError } from '../classification/classify-error.js';
import { BulkheadFullError } from '../errors/bulkhead-full.error.js';
import { CircuitOpenError } from '../errors/circuit-open.error.js';
import { PermissionDeniedError } from '../errors/permission-denied.error.js';
import { ToolTimeoutError } from '../errors/timeout.error.js';
import type { ToolError } from '../errors/tool-error.js';
import { ToolNotFoundError } from '../errors/tool-not-found.error.js';
import { assertSerializableOutput } from '../results/assert-serializable-output.js';
import { createToolFailure } from '../results/create-tool-failure.js';
import type { ToolFailure } from '../results/tool-outcome.js';
import { renderFailureText } from './render-failure-text.js';
import { thrownBy } from '../testing/thrown-by.test.js';

const TOOLS = [
  'get_weather',
  'search_flights',
  'book_flight',
  'send_email',
  'read_file',
  'create_issue',
];

function httpError(status: number, message: string, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(message), {
    config: { url: 'https://api.example.com/v1/resource', method: 'get' },
    response: { status, headers },
  });
}

function systemError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function unknownTool(name: string): ToolNotFoundError {
  return new ToolNotFoundError(`Unknown tool '${name}'.`, {
    availableTools: TOOLS,
    didYouMean: suggestToolNames(name, TOOLS),
  });
}

function failure(tool: string, error: ToolError, retryCount = 0, retryMax = 0): ToolFailure {
  return createToolFailure(error, {
    tool,
    callId: 'call_1',
    durationMs: 1200,
    retryCount,
    retryMax,
  });
}

/** Representative failures, one or more per error type, with the messages real sources produce. */
const corpus: readonly ToolFailure[] = [
  failure('get_weather', new ToolTimeoutError('Timed out after 5000ms.'), 2, 2),
  failure(
    'search_flights',
    classifyError(systemError('ETIMEDOUT', 'connect ETIMEDOUT 93.184.216.34:443')),
    2,
    2,
  ),
  failure(
    'get_weather',
    classifyError(httpError(429, 'Request failed with status code 429', { 'retry-after': '2' })),
    3,
    3,
  ),
  failure(
    'send_email',
    classifyError(
      Object.assign(new Error('ThrottlerException: Too Many Requests'), { status: 429 }),
    ),
  ),
  failure(
    'get_weather',
    classifyError(
      new TypeError('fetch failed', {
        cause: systemError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.12:8080'),
      }),
    ),
    2,
    2,
  ),
  failure('search_flights', classifyError(systemError('ECONNRESET', 'socket hang up')), 1, 2),
  failure(
    'book_flight',
    classifyError(httpError(503, 'Request failed with status code 503')),
    2,
    2,
  ),
  failure('search_flights', classifyError(httpError(502, 'Bad Gateway')), 2, 2),
  failure(
    'book_flight',
    new CircuitOpenError('Circuit open for book_flight after repeated failures.', {
      retryAfterMs: 30_000,
    }),
  ),
  failure('read_file', new BulkheadFullError('Too many concurrent calls (limit 4).'), 1, 3),
  failure('get_weather', thrownBy(() => parseToolArguments('{"city": "Par')) as ToolError),
  failure(
    'create_issue',
    classifyError([
      { property: 'title', constraints: { isNotEmpty: 'title should not be empty' }, children: [] },
      {
        property: 'labels',
        children: [
          { property: '0', constraints: { isString: 'each value in labels must be a string' } },
        ],
      },
    ]),
  ),
  failure('get_wether', unknownTool('get_wether')),
  failure('translate_text', unknownTool('translate_text')),
  failure(
    'read_file',
    classifyError(
      systemError('ENOENT', "ENOENT: no such file or directory, open '/data/report.csv'"),
    ),
  ),
  failure('get_weather', classifyError(httpError(404, 'City not found: Atlantis'))),
  failure('create_issue', classifyError(httpError(403, 'Resource not accessible by integration'))),
  failure('send_email', new PermissionDeniedError('Access denied by ToolGuard.')),
  failure('book_flight', classifyError(httpError(409, 'Seat 14C is already booked.'))),
  failure(
    'search_flights',
    classifyError(new DOMException('This operation was aborted', 'AbortError')),
  ),
  failure(
    'read_file',
    thrownBy(() =>
      parseToolArguments(`{"q":"${'x'.repeat(2048)}"}`, { maxBytes: 1024 }),
    ) as ToolError,
  ),
  failure('get_weather', thrownBy(() => assertSerializableOutput({ tempC: 21n })) as ToolError),
  failure(
    'get_weather',
    classifyError(new TypeError("Cannot read properties of undefined (reading 'temp')")),
  ),
  failure('send_email', classifyError('SMTP connection pool exhausted')),
];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

describe('renderFailureText', () => {
  it('says what failed, the type, the attempt, whether to retry and what to do next', () => {
    const text = renderFailureText(corpus[2] as ToolFailure);
    expect(text).toBe(
      [
        'Tool get_weather failed: rate_limited, attempt 4/4.',
        'Request failed with status code 429.',
        'Already retried 3 times.',
        'Next: Wait 2s before using this tool again, or use another tool.',
      ].join('\n'),
    );
  });

  it('says when retrying will not help', () => {
    expect(renderFailureText(corpus[18] as ToolFailure)).toContain('Retrying will not help.');
    expect(renderFailureText(corpus[3] as ToolFailure)).toContain('Retrying may help.');
  });

  it('says why a call that could have been retried was not, instead of a count it never reached', () => {
    const notFound = failure('get_weather', classifyError(httpError(404, 'City not found')), 0, 2);
    expect(renderFailureText(notFound).split('\n').slice(0, 3)).toEqual([
      'Tool get_weather failed: not_found, attempt 1 (not retried: not_found is not transient).',
      'City not found.',
      'Retrying will not help.',
    ]);
    const open = failure('get_weather', new CircuitOpenError('Circuit open.'), 0, 2);
    expect(renderFailureText(open)).toMatch(
      /^Tool get_weather failed: circuit_open, attempt 1 \(not retried: the circuit breaker is open\)\./,
    );
    const longWait = failure(
      'get_weather',
      classifyError(httpError(429, 'Too many', { 'retry-after': '600' })),
      1,
      3,
    );
    expect(renderFailureText(longWait)).toMatch(
      /attempt 2 \(not retried: the wait it asked for is longer than retries may wait\)\./,
    );
    const stopped = failure('get_weather', classifyError(httpError(503, 'Unavailable')), 0, 2);
    expect(renderFailureText(stopped)).toMatch(
      /attempt 1 \(not retried: the retry policy stopped\)\./,
    );
  });

  it('counts attempts as n/m when every allowed attempt was made', () => {
    for (const [retryCount, retryMax] of [
      [0, 0],
      [2, 2],
    ] as const) {
      const text = renderFailureText(
        failure('get_weather', classifyError(httpError(503, 'Unavailable')), retryCount, retryMax),
      );
      expect(text).toContain(`attempt ${retryCount + 1}/${retryMax + 1}.`);
      expect(text).not.toContain('not retried');
    }
  });

  it('lists did-you-mean names, or available tools when nothing is close', () => {
    expect(renderFailureText(corpus[12] as ToolFailure)).toContain('Did you mean: get_weather?');
    expect(renderFailureText(corpus[13] as ToolFailure)).toContain(
      `Available: ${TOOLS.join(', ')}.`,
    );
    const many = Array.from({ length: 14 }, (_, i) => `tool_${i}`);
    const crowded = failure('x', new ToolNotFoundError('Unknown tool.', { availableTools: many }));
    expect(renderFailureText(crowded)).toContain('tool_9, +4 more.');
  });

  it('lists issues compactly', () => {
    expect(renderFailureText(corpus[11] as ToolFailure)).toContain(
      'Issues: title: should not be empty; labels.0: each value in labels must be a string.',
    );
  });

  it('stays short: the median failure is at most 60 tokens (gpt-tokenizer)', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(20);
    const types = new Set(corpus.map((item) => item.errorType));
    expect(types.size).toBe(15);
    const counts = corpus.map((item) => encode(renderFailureText(item)).length);
    expect(median(counts)).toBeLessThanOrEqual(60);
  });
});
