import { describe, expect, it } from '@jest/globals';
import { AgentRunner, type AgentRunnerOptions } from '../agent/runner/agent-runner.js';
import { LoopGuard, type LoopGuardOptions } from '../agent/guards/loop-guard.js';
import { runToolBatch, type ToolBatchOptions } from '../agent/batch/run-tool-batch.js';
import { VirtualClock, type VirtualClockOptions } from '../clock/virtual-clock.js';
import { resolveBackoff, type BackoffOptions } from '../policies/backoff.js';
import {
  resolveCircuitBreakerOptions,
  type CircuitBreakerOptions,
} from '../policies/breaker/circuit-breaker-options.js';
import { Bulkhead, type BulkheadOptions } from '../policies/bulkhead.js';
import { resolveRetryPolicy, type RetryOptions } from '../policies/retry-policy.js';
import { describeOptionValue } from './option-rule.js';
import type { OptionRules } from './option-rules.js';
import { AGENT_RUNNER_OPTIONS_RULE } from '../agent/runner/agent-runner-options.rule.js';
import { BACKOFF_OPTIONS_RULE } from '../policies/backoff-options.rule.js';
import { BULKHEAD_OPTIONS_RULE } from '../policies/bulkhead-options.rule.js';
import { CIRCUIT_BREAKER_OPTIONS_RULE } from '../policies/breaker/circuit-breaker-options.rule.js';
import { LOOP_GUARD_OPTIONS_RULE } from '../agent/guards/loop-guard-options.rule.js';
import { RETRY_OPTIONS_RULE } from '../policies/retry-options.rule.js';
import { TOOL_BATCH_OPTIONS_RULE } from '../agent/batch/tool-batch-options.rule.js';
import { VIRTUAL_CLOCK_OPTIONS_RULE } from '../clock/virtual-clock-options.rule.js';

/** A bad value whose problem is reported below the option itself (`backoff.baseMs`). */
interface NestedBad {
  readonly value: unknown;
  readonly path: string;
  readonly expected: string;
  readonly received: string;
}

/** One option: values that must pass, and each class of bad value with what is allowed. */
interface OptionCase {
  readonly good: readonly unknown[];
  readonly bad: readonly unknown[];
  readonly expected: string;
  readonly nested?: readonly NestedBad[];
}

/** A case for every option of `T`: an option added without one fails to compile. */
type OptionCases<T> = { readonly [K in keyof T]-?: OptionCase };

interface OptionGroup<T> {
  /** The subject named in the message. */
  readonly subject: string;
  /** The public entry point the options go through. */
  readonly enter: (options: T) => unknown;
  /** Required options, present in every case. */
  readonly base?: Partial<T>;
  readonly rules: OptionRules<T>;
  readonly cases: OptionCases<T>;
}

const fn = () => undefined;
/** Classes of bad values shared by many options. */
const NOT_A_NUMBER = [NaN, '100', null, true, {}] as const;
const INFINITE = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY] as const;
const NOT_AN_INTEGER = [...NOT_A_NUMBER, ...INFINITE, 1.5] as const;
const NOT_A_FUNCTION = ['fn', 1, null, {}, true] as const;
const NOT_A_BOOLEAN = ['true', 1, 0, null, {}] as const;

const count = (min: number): OptionCase => ({
  good: [min, min + 1, 1_000],
  bad: [...NOT_AN_INTEGER, min - 1],
  expected: `an integer from ${min} up`,
});
const limitCase = (min: number): OptionCase => ({
  good: [min, 20, Number.POSITIVE_INFINITY],
  bad: [...NOT_A_NUMBER, Number.NEGATIVE_INFINITY, 1.5, min - 1],
  expected: `an integer from ${min} up, or Infinity for no limit`,
});
const ms = (): OptionCase => ({
  good: [0, 1, 250.5, 86_400_000],
  bad: [...NOT_A_NUMBER, ...INFINITE, -1],
  expected: 'a number of milliseconds from 0 up',
});
const positiveMs = (unlimited: boolean): OptionCase => ({
  good: [1, 0.5, 30_000, ...(unlimited ? [Number.POSITIVE_INFINITY] : [])],
  bad: [...NOT_A_NUMBER, 0, -1, Number.NEGATIVE_INFINITY, ...(unlimited ? [] : [Infinity])],
  expected: `a number of milliseconds above 0${unlimited ? ', or Infinity for no limit' : ''}`,
});
const callback: OptionCase = { good: [fn], bad: NOT_A_FUNCTION, expected: 'a function' };
const flag: OptionCase = { good: [true, false], bad: NOT_A_BOOLEAN, expected: 'true or false' };
const ERROR_TYPE_LIST =
  "a list of one of 'timeout', 'rate_limited', 'network', 'upstream_unavailable', 'circuit_open', 'bulkhead_full', 'invalid_input', 'tool_not_found', 'not_found', 'permission_denied', 'conflict', 'cancelled', 'limit_exceeded', 'invalid_output', 'internal', 'approval_pending', 'approval_denied', 'approval_expired', each at most once";
const ERROR_TYPE = ERROR_TYPE_LIST.slice('a list of '.length, -', each at most once'.length);

const backoffCases: OptionCases<BackoffOptions> = {
  baseMs: ms(),
  capMs: ms(),
  jitter: {
    good: ['full', 'decorrelated', 'none'],
    bad: ['Full', 'exponential', '', 1, null],
    expected: "one of 'full', 'decorrelated', 'none'",
  },
  random: callback,
};

const retryCases: OptionCases<RetryOptions> = {
  maxRetries: count(0),
  backoff: {
    good: [{}, { baseMs: 100, capMs: 1_000, jitter: 'full' }],
    bad: ['fast', 1, null, [1]],
    expected: 'an object',
    nested: [
      {
        value: { baseMs: NaN },
        path: 'backoff.baseMs',
        expected: 'a number of milliseconds from 0 up',
        received: 'NaN',
      },
      {
        value: { jitter: 'exp' },
        path: 'backoff.jitter',
        expected: backoffCases.jitter.expected,
        received: "'exp'",
      },
    ],
  },
  retryOn: {
    good: [['timeout', 'network'], [], fn, { types: ['rate_limited'] }, { when: fn }, {}],
    bad: ['timeout', 1, null, true],
    expected: `${ERROR_TYPE_LIST}, or a function, or an object { types, when }`,
    nested: [
      { value: ['nonsense'], path: 'retryOn[0]', expected: ERROR_TYPE, received: "'nonsense'" },
      {
        value: ['timeout', 'timeout'],
        path: 'retryOn[1]',
        expected: 'an item not already in the list',
        received: "'timeout'",
      },
      {
        value: { types: ['Timeout'] },
        path: 'retryOn.types[0]',
        expected: ERROR_TYPE,
        received: "'Timeout'",
      },
      { value: { when: true }, path: 'retryOn.when', expected: 'a function', received: 'true' },
    ],
  },
  retryOnResult: callback,
  maxRetryAfterMs: ms(),
  budgetMs: positiveMs(true),
  onRetry: callback,
  retryBudget: {
    good: [
      false,
      {},
      { ratio: 0.1, successRatio: 0.5, minRetriesPerSecond: 0, burst: 30, key: 'search-api' },
    ],
    bad: [true, 'on', 1, null],
    expected: 'false, or an object',
    nested: [
      {
        value: { ratio: NaN },
        path: 'retryBudget.ratio',
        expected: 'a number from 0 to 1000',
        received: 'NaN',
      },
      {
        value: { burst: -1 },
        path: 'retryBudget.burst',
        expected: 'a number from 0 to 1000000',
        received: '-1',
      },
    ],
  },
};

const breakerCases: OptionCases<CircuitBreakerOptions> = {
  errorThresholdPercentage: {
    good: [0, 50, 99.5],
    bad: [...NOT_A_NUMBER, ...INFINITE, -1, 100, 150],
    expected: 'a number from 0 to below 100',
  },
  volumeThreshold: count(1),
  openingRule: {
    good: [{ shouldOpen: () => false }],
    bad: [fn, {}, null, 'failureRatio'],
    expected: 'an opening rule (an object with shouldOpen())',
  },
  rollingWindowMs: positiveMs(false),
  rollingBuckets: count(1),
  resetTimeoutMs: ms(),
  halfOpenMaxCalls: count(1),
  slowCallDurationMs: positiveMs(true),
  isNeutral: callback,
};

const bulkheadCases: OptionCases<BulkheadOptions> = {
  maxConcurrent: { ...count(1), bad: [...count(1).bad, undefined] },
  maxQueue: count(0),
  toolName: { good: ['search', ''], bad: [1, null, {}], expected: 'a string' },
};

const virtualClockCases: OptionCases<VirtualClockOptions> = {
  startMs: {
    good: [0, -5, 1_700_000_000_000],
    bad: [...NOT_A_NUMBER, ...INFINITE],
    expected: 'a finite number',
  },
  maxTimersPerRun: limitCase(1),
};

const loopGuardCases: OptionCases<LoopGuardOptions> = {
  maxSteps: limitCase(1),
  maxConsecutiveFailures: limitCase(1),
  maxRepeatedFailures: limitCase(1),
  maxCallsPerRun: limitCase(1),
  maxCallsPerTool: {
    good: [3, Number.POSITIVE_INFINITY, { search: 2, fetch: Number.POSITIVE_INFINITY }, {}],
    bad: [NaN, '3', 0, null, []],
    expected: `${limitCase(1).expected}, or an object whose values are each ${limitCase(1).expected}`,
    nested: [
      {
        value: { search: 0 },
        path: 'maxCallsPerTool.search',
        expected: limitCase(1).expected,
        received: '0',
      },
    ],
  },
};

const nonBlankList: OptionCase = {
  good: [[], ['ask', 'done']],
  bad: ['ask', null, {}],
  expected: 'a list of a non-blank string',
  nested: [
    {
      value: ['ask', ' '],
      path: 'terminatingTools[1]',
      expected: 'a non-blank string',
      received: "' '",
    },
  ],
};
const batchCases: OptionCases<ToolBatchOptions> = {
  strategy: {
    good: ['sequential', 'parallel'],
    bad: ['serial', '', 1, null],
    expected: "one of 'sequential', 'parallel'",
  },
  concurrency: count(1),
  isConcurrencySafe: callback,
  terminatingTools: nonBlankList,
  signal: {
    good: [new AbortController().signal],
    bad: [{ aborted: false }, 'signal', null],
    expected: 'an AbortSignal',
  },
  onEntry: callback,
};

const { signal: _signal, onEntry: _onEntry, ...batchDefaultCases } = batchCases;
const agentRunnerCases: OptionCases<AgentRunnerOptions> = {
  model: { ...callback, bad: [...NOT_A_FUNCTION, undefined] },
  executor: { ...callback, bad: [...NOT_A_FUNCTION, undefined] },
  tools: {
    good: [[], [{ name: 'search' }]],
    bad: [{ name: 'search' }, 'search', null],
    expected: 'a list of a tool definition object',
    nested: [
      {
        value: ['search'],
        path: 'tools[0]',
        expected: 'a tool definition object',
        received: "'search'",
      },
    ],
  },
  store: {
    good: [{ load: fn, save: fn }],
    bad: [{ load: fn }, {}, 'memory', null],
    expected: 'a ToolCallLedgerStore (an object with load() and save())',
  },
  systemPrompt: { good: ['', 'Be brief.'], bad: [1, null, {}], expected: 'a string' },
  includeGuidance: flag,
  completionTool: { good: ['complete'], bad: ['', '  ', 1, null], expected: 'a non-blank string' },
  batch: {
    good: [{}, { strategy: 'parallel', concurrency: 2 }],
    bad: ['parallel', null],
    expected: 'an object',
    nested: [
      {
        value: { concurrency: 0 },
        path: 'batch.concurrency',
        expected: 'an integer from 1 up',
        received: '0',
      },
      {
        value: { signal: new AbortController().signal },
        path: 'batch.signal',
        expected: `absent: it is not an option (the options here are ${Object.keys(batchDefaultCases).join(', ')})`,
        received: 'an AbortSignal',
      },
    ],
  },
  guards: {
    good: [{}, { maxSteps: 5 }],
    bad: [5, null],
    expected: 'an object',
    nested: [
      {
        value: { maxSteps: NaN },
        path: 'guards.maxSteps',
        expected: limitCase(1).expected,
        received: 'NaN',
      },
    ],
  },
  decisionPrompt: {
    good: ['every-failure', 'unrecoverable-only', 'never', { afterConsecutiveFailures: 2 }],
    bad: ['always', 2, null],
    expected:
      "one of 'every-failure', 'unrecoverable-only', 'never', or an object { afterConsecutiveFailures }",
    nested: [
      {
        value: {},
        path: 'decisionPrompt.afterConsecutiveFailures',
        expected: 'an integer from 1 up',
        received: 'undefined',
      },
    ],
  },
  safeToRepeat: callback,
  renderOutcome: callback,
  stopAnswer: callback,
};

const groups: readonly AnyOptionGroup[] = [
  group<RetryOptions>({
    subject: 'RetryOptions',
    enter: resolveRetryPolicy,
    rules: RETRY_OPTIONS_RULE.rules,
    cases: retryCases,
  }),
  group<BackoffOptions>({
    subject: 'BackoffOptions',
    enter: resolveBackoff,
    rules: BACKOFF_OPTIONS_RULE.rules,
    cases: backoffCases,
  }),
  group<CircuitBreakerOptions>({
    subject: 'CircuitBreakerOptions',
    enter: (options) => resolveCircuitBreakerOptions(undefined, options),
    rules: CIRCUIT_BREAKER_OPTIONS_RULE.rules,
    cases: breakerCases,
  }),
  group<BulkheadOptions>({
    subject: 'BulkheadOptions',
    enter: (options) => new Bulkhead(options),
    base: { maxConcurrent: 1 },
    rules: BULKHEAD_OPTIONS_RULE.rules,
    cases: bulkheadCases,
  }),
  group<VirtualClockOptions>({
    subject: 'VirtualClockOptions',
    enter: (options) => new VirtualClock(options),
    rules: VIRTUAL_CLOCK_OPTIONS_RULE.rules,
    cases: virtualClockCases,
  }),
  group<LoopGuardOptions>({
    subject: 'LoopGuardOptions',
    enter: (options) => new LoopGuard(options),
    rules: LOOP_GUARD_OPTIONS_RULE.rules,
    cases: loopGuardCases,
  }),
  group<ToolBatchOptions>({
    subject: 'ToolBatchOptions',
    enter: (options) => runToolBatch([], async () => ({}) as never, options),
    rules: TOOL_BATCH_OPTIONS_RULE.rules,
    cases: batchCases,
  }),
  group<AgentRunnerOptions>({
    subject: 'AgentRunnerOptions',
    enter: (options) => new AgentRunner(options),
    base: {
      model: async () => ({ role: 'assistant', content: '' }),
      executor: async () => ({}) as never,
    },
    rules: AGENT_RUNNER_OPTIONS_RULE.rules,
    cases: agentRunnerCases,
  }),
];

/** A group with its option type erased, so groups of different options share one table. */
interface AnyOptionGroup {
  readonly subject: string;
  readonly enter: (options: never) => unknown;
  readonly base?: object;
  readonly rules: Readonly<Record<string, unknown>>;
  readonly cases: Readonly<Record<string, OptionCase>>;
}

function group<T>(definition: OptionGroup<T>): AnyOptionGroup {
  return definition as AnyOptionGroup;
}

async function enter(group: AnyOptionGroup, options: unknown): Promise<unknown> {
  return group.enter(options as never);
}

describe.each(groups)('$subject', (group) => {
  const withOption = (key: string, value: unknown) => ({ ...group.base, [key]: value });

  it('has a case for every option it has a rule for', () => {
    expect(Object.keys(group.cases).sort()).toEqual(Object.keys(group.rules).sort());
  });

  it('accepts no options beyond the required ones', async () => {
    await expect(enter(group, { ...group.base })).resolves.not.toThrow();
  });

  const rows = Object.entries(group.cases);

  describe.each(rows)('%s', (key, option) => {
    it.each(option.good.map((value) => [describeOptionValue(value), value]))(
      'accepts %s',
      async (_, value) => {
        await expect(enter(group, withOption(key, value))).resolves.not.toThrow();
      },
    );

    it.each(option.bad.map((value) => [describeOptionValue(value), value]))(
      'refuses %s, naming the option, the value and what is allowed',
      async (shown, value) => {
        await expect(enter(group, withOption(key, value))).rejects.toMatchObject({
          name: 'InvalidOptionsError',
          message: `Invalid ${group.subject}: ${key} must be ${option.expected}, got ${shown}.`,
        });
      },
    );

    if (option.nested === undefined) return;
    it.each(option.nested)('refuses a bad part at $path', async (bad) => {
      await expect(enter(group, withOption(key, bad.value))).rejects.toMatchObject({
        message: `Invalid ${group.subject}: ${bad.path} must be ${bad.expected}, got ${bad.received}.`,
      });
    });
  });

  it('refuses an option it does not know (a misspelling is never ignored)', async () => {
    await expect(enter(group, withOption('timeout', 100))).rejects.toMatchObject({
      message: `Invalid ${group.subject}: timeout must be absent: it is not an option (the options here are ${Object.keys(group.rules).join(', ')}), got 100.`,
    });
  });

  it('refuses options that are not an object', async () => {
    await expect(enter(group, 'fast')).rejects.toMatchObject({
      message: `Invalid ${group.subject}: the options must be an object, got 'fast'.`,
    });
  });
});
