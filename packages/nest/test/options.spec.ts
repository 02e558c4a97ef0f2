import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { type ToolFailure } from '@toolshield/core';
import { InMemoryToolCallLedgerStore } from '@toolshield/core/agent';
import { InMemoryApprovalStore } from '@toolshield/core/approvals';
import { InMemoryCircuitBreakerStore } from '@toolshield/core/internal';
import { VirtualClock } from '@toolshield/core/testing';
import {
  Retryable,
  Tool,
  ToolShieldModule,
  assertToolOptions,
  type ExecuteOptions,
  type ToolOptions,
  type ToolShieldModuleOptions,
} from '../src/index.js';
import { createToolApp } from './fixtures/create-app.js';

/**
 * One option: values that must pass, and bad values with the problem each must be reported
 * as (`<path> must be <allowed>, got <value>`, the path below the option where the problem
 * lies deeper).
 */
interface OptionTable {
  readonly good: readonly unknown[];
  readonly bad: readonly (readonly [value: unknown, problem: string])[];
  /** Other options every row of a tool option is given with (an option that depends on them). */
  readonly with?: Partial<ToolOptions>;
}

/** A row for every option of `T`: an option added without one fails to compile. */
type OptionTables<T> = { readonly [K in keyof T]-?: OptionTable };

const fn = () => undefined;
const TIMEOUT = 'false, or a number of milliseconds above 0';
const POLICIES = "one of 'retry', 'breaker', 'timeout', 'bulkhead', 'rateLimit'";
const badTimeouts = (path: string) =>
  (
    [
      [NaN, 'NaN'],
      ['100', "'100'"],
      [Infinity, 'Infinity'],
      [0, '0'],
      [-1, '-1'],
      [true, 'true'],
      [null, 'null'],
    ] as const
  ).map(([value, shown]) => [value, `${path} must be ${TIMEOUT}, got ${shown}`] as const);

const moduleOptions: OptionTables<ToolShieldModuleOptions & { isGlobal?: boolean }> = {
  clock: {
    good: [new VirtualClock()],
    bad: [
      [{ now: fn }, 'clock must be a Clock (an object with now() and setTimer()), got an object'],
      ['system', "clock must be a Clock (an object with now() and setTimer()), got 'system'"],
    ],
  },
  random: { good: [fn], bad: [[0.5, 'random must be a function, got 0.5']] },
  idempotencyKey: {
    good: [() => 'key'],
    bad: [['run-1', "idempotencyKey must be a function, got 'run-1'"]],
  },
  defaults: {
    good: [
      {},
      { timeoutMs: false, breaker: false },
      { retry: { maxRetries: 1 }, breaker: { volumeThreshold: 5 }, bulkhead: { maxConcurrent: 2 } },
      { hedging: { delayMs: 'p90' } },
    ],
    bad: [
      ['strict', "defaults must be an object, got 'strict'"],
      ...badTimeouts('defaults.timeoutMs').map(
        ([value, problem]) => [{ timeoutMs: value }, problem] as const,
      ),
      [
        { retry: { maxRetries: NaN } },
        'defaults.retry.maxRetries must be an integer from 0 up, got NaN',
      ],
      [
        { retry: { maxRetries: Infinity } },
        'defaults.retry.maxRetries must be an integer from 0 up, got Infinity',
      ],
      [
        { retry: { budgetMs: NaN } },
        'defaults.retry.budgetMs must be a number of milliseconds above 0, or Infinity for no limit, got NaN',
      ],
      [{ retry: { retryOn: ['nonsense'] } }, "defaults.retry.retryOn[0] must be one of 'timeout'"],
      [
        { breaker: { volumeThreshold: NaN } },
        'defaults.breaker.volumeThreshold must be an integer from 1 up, got NaN',
      ],
      [
        { breaker: { errorThresholdPercentage: 150 } },
        'defaults.breaker.errorThresholdPercentage must be a number from 0 to below 100, got 150',
      ],
      [{ breaker: true }, 'defaults.breaker must be false, or an object, got true'],
      [
        { bulkhead: { maxConcurrent: NaN } },
        'defaults.bulkhead.maxConcurrent must be an integer from 1 up, got NaN',
      ],
      [
        { bulkhead: {} },
        'defaults.bulkhead.maxConcurrent must be an integer from 1 up, got undefined',
      ],
      [
        { timeout: 100 },
        'defaults.timeout must be absent: it is not an option (the options here are retry, timeoutMs, breaker, bulkhead, rateLimit, hedging, output), got 100',
      ],
      [
        { hedging: { maxExtraShare: -1 } },
        'defaults.hedging.maxExtraShare must be a number from 0 to 1, got -1',
      ],
    ],
  },
  policyOrder: {
    good: [
      ['retry', 'rateLimit', 'breaker', 'timeout', 'bulkhead'],
      ['bulkhead', 'timeout', 'breaker', 'rateLimit', 'retry'],
      ['retry', 'breaker', 'timeout', 'bulkhead'],
    ],
    bad: [
      [['retry', 'bogus'], `policyOrder[1] must be ${POLICIES}, got 'bogus'`],
      [
        ['retry', 'retry', 'timeout'],
        "policyOrder[1] must be an item not already in the list, got 'retry'",
      ],
      [
        ['retry', 'rateLimit', 'breaker', 'bulkhead'],
        "policyOrder must be a list of 'retry', 'breaker', 'timeout', 'bulkhead', each exactly once, got a list without 'timeout'",
      ],
      [
        'retry',
        "policyOrder must be a list of 'retry', 'breaker', 'timeout', 'bulkhead', each exactly once, got 'retry'",
      ],
    ],
  },
  rateLimits: {
    good: [{}, { 'search-api': { rate: 50, burst: 5, adaptive: true } }],
    bad: [
      [
        { 'search-api': { rate: 0 } },
        'rateLimits.search-api.rate must be a number of calls per second above 0, got 0',
      ],
      [
        { 'search-api': { rate: 10, adaptive: { decreaseFactor: 2 } } },
        'rateLimits.search-api.adaptive.decreaseFactor must be a number from 0 to below 1, got 2',
      ],
    ],
  },
  breakerStore: {
    good: [new InMemoryCircuitBreakerStore()],
    bad: [
      [
        { get: fn },
        'breakerStore must be a CircuitBreakerStore (an object with get() and set()), got an object',
      ],
    ],
  },
  rateLimitStore: {
    good: [{ limiter: fn }],
    bad: [
      // The store seam before issue 35: a store now makes its limiters.
      [
        { reserve: fn, fallbackRate: fn, share: fn },
        'rateLimitStore must be a RateLimitStore (an object with limiter()), got an object',
      ],
    ],
  },
  retryBudgetStore: {
    good: [{ recordCall: fn, recordSuccess: fn, tryRetry: fn }],
    bad: [
      [
        { recordCall: fn, tryRetry: fn },
        'retryBudgetStore must be a RetryBudgetStore (an object with recordCall() and recordSuccess() and tryRetry()), got an object',
      ],
    ],
  },
  cacheStore: {
    good: [{ get: fn, set: fn }],
    bad: [
      [
        { get: fn },
        'cacheStore must be a ToolCacheStore (an object with get() and set()), got an object',
      ],
    ],
  },
  estimateTokens: {
    good: [fn],
    bad: [['bytes', "estimateTokens must be a function, got 'bytes'"]],
  },
  readMoreTool: {
    good: [true, false, { keepMs: 60_000, maxEntries: 10 }],
    bad: [[{ keepMs: 0 }, 'readMoreTool.keepMs must be a number of milliseconds above 0, got 0']],
  },
  classificationRules: {
    good: [[], [fn]],
    bad: [
      [fn, 'classificationRules must be a list of a function, got a function'],
      [['timeout'], "classificationRules[0] must be a function, got 'timeout'"],
    ],
  },
  redactPatterns: {
    good: [[], [/secret/i], [{ pattern: /tok_[a-z]+/, hints: ['tok_'] }]],
    bad: [
      [['secret'], "redactPatterns[0] must be a RegExp, or an object, got 'secret'"],
      [[{ hints: ['x'] }], 'redactPatterns[0].pattern must be a RegExp, got undefined'],
    ],
  },
  maxArgumentBytes: {
    good: [2, 1024 * 1024],
    bad: (
      [
        [-1, '-1'],
        [0, '0'],
        [1, '1'],
        [NaN, 'NaN'],
        [Infinity, 'Infinity'],
        [1.5, '1.5'],
        ['1024', "'1024'"],
      ] as const
    ).map(
      ([value, shown]) =>
        [value, `maxArgumentBytes must be an integer from 2 up, got ${shown}`] as const,
    ),
  },
  approvals: {
    good: [{}, { store: new InMemoryApprovalStore(), ttlMs: 60_000 }],
    bad: [
      [{ ttlMs: -1 }, 'approvals.ttlMs must be a number of milliseconds from 0 up, got -1'],
      [{ store: {} }, 'approvals.store must be an ApprovalStore'],
    ],
  },
  agent: {
    good: [
      {},
      {
        batch: { strategy: 'parallel', concurrency: 3 },
        ledgerStore: new InMemoryToolCallLedgerStore(),
      },
    ],
    bad: [
      [
        { batch: { concurrency: NaN } },
        'agent.batch.concurrency must be an integer from 1 up, got NaN',
      ],
      [
        { batch: { strategy: 'eager' } },
        "agent.batch.strategy must be one of 'sequential', 'parallel', got 'eager'",
      ],
      [
        { ledgerStore: {} },
        'agent.ledgerStore must be a ToolCallLedgerStore (an object with load() and save()), got an object',
      ],
    ],
  },
  isGlobal: { good: [true, false], bad: [['yes', "isGlobal must be true or false, got 'yes'"]] },
};

describe('ToolShieldModule options', () => {
  describe.each(Object.entries(moduleOptions))('%s', (key, table) => {
    it.each(table.good.map((value) => [value]))('accepts %p', (value) => {
      expect(() => ToolShieldModule.forRoot({ [key]: value })).not.toThrow();
    });

    it.each(table.bad)(
      'refuses %p at startup, naming the option, the value and what is allowed',
      (value, problem) => {
        expect(() => ToolShieldModule.forRoot({ [key]: value } as ToolShieldModuleOptions)).toThrow(
          `Invalid ToolShieldModule options: ${problem}`,
        );
      },
    );
  });

  it('starts with every option set to a good value', async () => {
    const app = await createToolApp([], {
      random: () => 0.5,
      defaults: moduleOptions.defaults.good[2] as ToolShieldModuleOptions['defaults'],
      policyOrder: ['bulkhead', 'timeout', 'breaker', 'rateLimit', 'retry'],
      rateLimits: { 'search-api': { rate: 5 } },
      breakerStore: new InMemoryCircuitBreakerStore(),
      classificationRules: [],
      redactPatterns: [/secret/],
      maxArgumentBytes: 2,
      agent: { batch: { concurrency: 2 } },
    });
    await app.close();
  });

  it('refuses the options a forRootAsync factory returns, before the application starts', async () => {
    const startup = Test.createTestingModule({
      imports: [
        ToolShieldModule.forRootAsync({ useFactory: async () => ({ maxArgumentBytes: -1 }) }),
      ],
    }).compile();
    await expect(startup).rejects.toThrow(
      'Invalid ToolShieldModule options: maxArgumentBytes must be an integer from 2 up, got -1.',
    );
  });

  it('refuses the options of a forRootAsync options class', async () => {
    @Injectable()
    class Settings {
      createToolShieldOptions(): ToolShieldModuleOptions {
        return { policyOrder: ['retry', 'retry', 'timeout'] as never };
      }
    }
    const startup = Test.createTestingModule({
      imports: [ToolShieldModule.forRootAsync({ useClass: Settings })],
    }).compile();
    await expect(startup).rejects.toThrow(
      "Invalid ToolShieldModule options: policyOrder[1] must be an item not already in the list, got 'retry'.",
    );
  });
});

const toolOptions: OptionTables<ToolOptions> = {
  name: {
    good: ['get_weather'],
    bad: [['', "@Tool(probe).name must be a non-blank string, got ''"]],
  },
  description: {
    good: ['Current weather.'],
    bad: [[42, '@Tool(probe).description must be a string, got 42']],
  },
  inputSchema: {
    good: [{ type: 'object' }, { type: 'object', properties: { city: { type: 'string' } } }],
    bad: [
      [
        { type: 'array' },
        "@Tool(probe).inputSchema must be a JSON Schema object whose type is 'object', got an object",
      ],
      [
        'object',
        "@Tool(probe).inputSchema must be a JSON Schema object whose type is 'object', got 'object'",
      ],
    ],
  },
  annotations: {
    good: [{}, { title: 'Weather', readOnlyHint: true, openWorldHint: true }],
    bad: [
      [
        { readOnlyHint: 'yes' },
        "@Tool(probe).annotations.readOnlyHint must be true or false, got 'yes'",
      ],
    ],
  },
  idempotent: {
    good: [true, false],
    bad: [['true', "@Tool(probe).idempotent must be true or false, got 'true'"]],
  },
  timeoutMs: { good: [false, 1, 5_000], bad: badTimeouts('@Tool(probe).timeoutMs') },
  breaker: {
    good: [false, {}, { volumeThreshold: 5, key: fn }],
    bad: [
      [true, '@Tool(probe).breaker must be false, or an object, got true'],
      [
        { volumeThreshold: NaN },
        '@Tool(probe).breaker.volumeThreshold must be an integer from 1 up, got NaN',
      ],
      [{ key: 'tenant' }, "@Tool(probe).breaker.key must be a function, got 'tenant'"],
    ],
  },
  bulkhead: {
    good: [{ maxConcurrent: 1 }, { maxConcurrent: 4, maxQueue: 0 }],
    bad: [
      [
        { maxConcurrent: NaN },
        '@Tool(probe).bulkhead.maxConcurrent must be an integer from 1 up, got NaN',
      ],
      [
        { maxConcurrent: 2, maxQueue: -1 },
        '@Tool(probe).bulkhead.maxQueue must be an integer from 0 up, got -1',
      ],
    ],
  },
  rateLimit: {
    good: [
      false,
      { rate: 5 },
      { key: 'search-api' },
      { rate: 20, burst: 4, adaptive: { minRate: 1 } },
    ],
    bad: [
      [
        { rate: NaN },
        '@Tool(probe).rateLimit.rate must be a number of calls per second above 0, got NaN',
      ],
      [{ burst: 0 }, '@Tool(probe).rateLimit.burst must be an integer from 1 up, got 0'],
      [{ key: '' }, "@Tool(probe).rateLimit.key must be a non-blank string, got ''"],
    ],
  },
  fallback: {
    good: [
      { on: ['timeout'], value: null },
      { on: ['upstream_unavailable'], tool: 'cached' },
    ],
    bad: [
      [{ value: 1 }, '@Tool(probe).fallback.on must be a list of'],
      [{ on: ['nonsense'] }, '@Tool(probe).fallback.on[0] must be'],
    ],
  },
  hedging: {
    with: { idempotent: true, annotations: { readOnlyHint: true } },
    good: [false, {}, { delayMs: 'p95', maxExtraShare: 0.1 }, { delayMs: 50, minSamples: 5 }],
    bad: [
      [
        { delayMs: 'p50' },
        "@Tool(probe).hedging.delayMs must be one of 'p90', 'p95', 'p99', or a number of milliseconds from 0 up, got 'p50'",
      ],
      [
        { maxExtraShare: 2 },
        '@Tool(probe).hedging.maxExtraShare must be a number from 0 to 1, got 2',
      ],
    ],
  },
  needsApproval: {
    good: [true, false, () => true],
    bad: [['yes', '@Tool(probe).needsApproval must be']],
  },
  critical: {
    good: [true, false],
    bad: [['yes', "@Tool(probe).critical must be true or false, got 'yes'"]],
  },
  output: {
    good: [false, { maxTokens: 4_000 }, { maxBytes: 50_000 }, { maxTokens: 256, maxBytes: 1_024 }],
    bad: [
      [{ maxTokens: 10 }, '@Tool(probe).output.maxTokens must be an integer from 256 up, got 10'],
      [true, '@Tool(probe).output must be'],
    ],
  },
  cache: {
    with: { idempotent: true, annotations: { readOnlyHint: true } },
    good: [{ ttlMs: 1_000 }, { ttlMs: 60_000, staleIfErrorMs: 600_000, scope: fn }],
    bad: [
      [{ ttlMs: 0 }, '@Tool(probe).cache.ttlMs must be a number of milliseconds above 0, got 0'],
      [{ staleIfErrorMs: 1_000 }, '@Tool(probe).cache.ttlMs must be'],
    ],
  },
};

describe('@Tool() and @Retryable() options', () => {
  const base = { description: 'A probe.' };

  describe.each(Object.entries(toolOptions))('%s', (key, table) => {
    const given = { ...base, ...table.with };
    it.each(table.good.map((value) => [value]))('accepts %p', (value) => {
      expect(() => assertToolOptions({ ...given, [key]: value }, undefined, 'probe')).not.toThrow();
    });

    it.each(table.bad)('refuses %p, naming the tool', (value, problem) => {
      expect(() =>
        assertToolOptions({ ...given, [key]: value } as ToolOptions, undefined, 'probe'),
      ).toThrow(`Invalid tool options: ${problem}`);
    });
  });

  it('refuses bad @Retryable() options, naming the tool', () => {
    expect(() => assertToolOptions({ ...base, name: 'search' }, { maxRetries: Infinity })).toThrow(
      'Invalid tool options: @Retryable(search).maxRetries must be an integer from 0 up, got Infinity.',
    );
  });

  it('fails startup on a bad @Tool() option of a discovered tool', async () => {
    @Injectable()
    class WeatherTools {
      @Tool({
        name: 'get_weather',
        description: 'Current weather.',
        timeoutMs: Number.POSITIVE_INFINITY,
      })
      getWeather() {
        return 'sunny';
      }
    }
    await expect(createToolApp([WeatherTools])).rejects.toThrow(
      `Invalid tool options: @Tool(get_weather).timeoutMs must be ${TIMEOUT}, got Infinity.`,
    );
  });

  it('fails startup on a bad @Retryable() option of a discovered tool, named by its method', async () => {
    @Injectable()
    class SearchTools {
      @Tool({ idempotent: true, description: 'Searches.' })
      @Retryable({ retryOn: { types: ['timeout'], when: 'always' as never } })
      search() {
        return [];
      }
    }
    await expect(createToolApp([SearchTools])).rejects.toThrow(
      "Invalid tool options: @Retryable(search).retryOn.when must be a function, got 'always'.",
    );
  });
});

const executeOptions: OptionTables<ExecuteOptions> = {
  signal: {
    good: [new AbortController().signal],
    bad: [[{ aborted: false }, 'signal must be an AbortSignal, got an object']],
  },
  metadata: {
    good: [{}, { tenant: 'acme' }],
    bad: [['acme', "metadata must be an object, got 'acme'"]],
  },
  timeoutMs: { good: [false, 1, 5_000], bad: badTimeouts('timeoutMs') },
  approved: {
    good: [{}, { by: 'ana', reason: 'ok' }],
    bad: [
      ['ana', 'approved must be'],
      [{ by: 7 }, 'approved.by must be'],
    ],
  },
  rateLimitMaxWaitMs: {
    good: [0, 500],
    bad: [[-1, 'rateLimitMaxWaitMs must be a number of milliseconds from 0 up, got -1']],
  },
  conversationId: {
    good: ['run-1'],
    bad: [
      ['', "conversationId must be a non-blank string, got ''"],
      [7, 'conversationId must be a non-blank string, got 7'],
    ],
  },
  idempotencyKey: {
    good: ['run-1:call_7'],
    bad: [
      ['', "idempotencyKey must be a non-blank string, got ''"],
      [' ', "idempotencyKey must be a non-blank string, got ' '"],
      [42, 'idempotencyKey must be a non-blank string, got 42'],
    ],
  },
  retry: {
    good: [false, {}, { maxRetries: 1 }],
    bad: [
      [true, 'retry must be false, or an object, got true'],
      [{ maxRetries: NaN }, 'retry.maxRetries must be an integer from 0 up, got NaN'],
      [
        { budgetMs: NaN },
        'retry.budgetMs must be a number of milliseconds above 0, or Infinity for no limit, got NaN',
      ],
    ],
  },
};

describe('ToolExecutor.execute() options', () => {
  @Injectable()
  class EchoTools {
    @Tool({
      name: 'echo',
      description: 'Echoes.',
      idempotent: true,
      inputSchema: { type: 'object' },
    })
    echo() {
      return 'echo';
    }
  }

  let app: Awaited<ReturnType<typeof createToolApp>>;
  beforeAll(async () => {
    app = await createToolApp([EchoTools]);
  });
  afterAll(() => app.close());

  const call = { id: 'call_1', name: 'echo', arguments: '{}' };

  describe.each(Object.entries(executeOptions))('%s', (key, table) => {
    it.each(table.good.map((value) => [value]))('accepts %p', async (value) => {
      await expect(app.executor.execute(call, { [key]: value })).resolves.toMatchObject({
        success: true,
      });
    });

    it.each(table.bad)(
      'ends the call invalid_input for %p, naming the option',
      async (value, problem) => {
        const outcome = (await app.executor.execute(call, {
          [key]: value,
        } as ExecuteOptions)) as ToolFailure;
        expect(outcome).toMatchObject({
          success: false,
          errorType: 'invalid_input',
          retryCount: 0,
        });
        expect(outcome.error).toContain(`Invalid ToolExecutor.execute() options: ${problem}`);
        expect(outcome.issues?.[0]).toMatchObject({
          path: problem.split(' ')[0],
          constraint: 'option',
        });
      },
    );
  });

  it('ends the call invalid_input for options that are not an object, and for unknown ones', async () => {
    await expect(app.executor.execute(call, null as never)).resolves.toMatchObject({
      errorType: 'invalid_input',
      error: 'Invalid ToolExecutor.execute() options: the options must be an object, got null.',
    });
    await expect(app.executor.execute(call, { timeout: 5 } as never)).resolves.toMatchObject({
      errorType: 'invalid_input',
      issues: [expect.objectContaining({ path: 'timeout' })],
    });
  });
});
