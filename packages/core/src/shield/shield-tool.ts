import { classifyError } from '../classification/classify-error.js';
import { InvalidOptionsError } from '../options/invalid-options.error.js';
import { describeOptionValue } from '../options/option-rule.js';
import { systemClock } from '../clock/system-clock.js';
import { ToolCircuitBreaker } from '../policies/breaker/circuit-breaker.js';
import { Bulkhead } from '../policies/bulkhead.js';
import { composePolicies, type PolicySet } from '../policies/compose.js';
import { DEFAULT_TOOL_TIMEOUT_MS } from '../policies/timeout.js';
import { createToolFailure } from '../results/create-tool-failure.js';
import { createToolResult } from '../results/create-tool-result.js';
import { defaultIdempotencyKey } from '../results/idempotency-key.js';
import { hasSideEffects } from '../results/side-effects.js';
import type { ToolCallContext } from '../results/tool-call.js';
import type { ToolOutcome } from '../results/tool-outcome.js';
import { type ShieldCall, type ShieldOptions } from './shield-options.js';
import { ShieldResults } from './shield-results.js';

/**
 * A tool behind toolshield's policies: it never throws and never rejects; every call ends in
 * exactly one `ToolResult` or `ToolFailure`.
 *
 * @publicApi
 */
export type ShieldedTool<TArgs, TOutput> = (
  args: TArgs,
  call?: ShieldCall,
) => Promise<ToolOutcome<TOutput>>;

/**
 * Puts any tool function behind toolshield's policies without Nest: retries (only when the tool
 * is declared `idempotent`; `retry` tunes them), a circuit breaker, a per-attempt timeout whose signal
 * reaches the tool, an optional bulkhead, then classification of whatever it threw into the
 * taxonomy and a redacted `ToolFailure` the model can read (one that says the call may have
 * taken effect, rather than to retry it, when a tool not declared `idempotent` fails after its
 * request may have left: see `hasSideEffects`). The framework adapters
 * (`@toolshield/ai-sdk`, `@toolshield/openai-agents`, `@toolshield/langchain`) wrap foreign
 * tools with it.
 *
 * @example
 * const getWeather = shieldTool(
 *   (args: { city: string }, { signal }) => fetchWeather(args.city, signal),
 *   { name: 'get_weather', idempotent: true, timeoutMs: 5_000 },
 * );
 * const outcome = await getWeather({ city: 'Paris' }, { callId: 'call_1', signal });
 * @publicApi
 */
export function shieldTool<TArgs, TOutput>(
  fn: (args: TArgs, call: ToolCallContext) => TOutput | PromiseLike<TOutput>,
  options: ShieldOptions,
): ShieldedTool<TArgs, TOutput> {
  const { name, clock = systemClock, redactor } = options;
  const run = composePolicies(policiesOf(options));
  const classification = { rules: options.classificationRules, now: () => clock.now() };
  const sideEffects = hasSideEffects(options);
  const results = new ShieldResults(
    options,
    clock,
    (error) => classifyError(error, classification).type,
  );

  return async (args, call = {}) => {
    const startedAt = clock.now();
    const callId = call.callId ?? `call_${crypto.randomUUID()}`;
    const metadata = call.metadata ?? {};
    const idempotencyKey =
      call.idempotencyKey ?? defaultIdempotencyKey({ callId, conversationId: call.conversationId });
    const runPolicies = () =>
      run(async ({ attempt, signal }): Promise<TOutput> => {
        try {
          return await fn(args, {
            callId,
            toolName: name,
            attempt,
            signal,
            metadata,
            idempotencyKey,
          });
        } catch (error) {
          // Classified per attempt, so the retry and breaker policies judge it by its type.
          throw classifyError(error, classification);
        }
      }, call.signal);
    const { outcome, cache } = await results.run(args, call, runPolicies);
    const facts = {
      tool: name,
      callId,
      retryCount: outcome.retryCount,
      retryMax: outcome.retryMax,
      retriesWithheld: outcome.retriesWithheld,
      durationMs: clock.now() - startedAt,
      sideEffects,
      idempotencyKey,
    };
    if (outcome.ok) {
      const read = results.fit(outcome.value, cache);
      return createToolResult(read.output as TOutput, { ...facts, metadata: read.metadata });
    }
    return createToolFailure(classifyError(outcome.error, classification), facts, { redactor });
  };
}

function policiesOf(options: ShieldOptions): PolicySet {
  const { name, clock, idempotent = false, retry, timeoutMs, breaker, bulkhead } = options;
  if (retry !== undefined && retry !== false && !idempotent) {
    throw new InvalidOptionsError('shieldTool options', [
      {
        path: `shieldTool(${name}).retry`,
        expected:
          'on a tool declared idempotent (a retried call runs more than once: add idempotent: true, or remove retry)',
        received: describeOptionValue(retry),
      },
    ]);
  }
  return {
    toolName: name,
    clock,
    retryBudgetStore: options.retryBudgetStore,
    retry: retry === false || !idempotent ? undefined : (retry ?? {}),
    timeoutMs: timeoutMs === false ? undefined : Math.max(0, timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS),
    breaker:
      breaker === false ? undefined : new ToolCircuitBreaker(breaker ?? {}, { clock, tool: name }),
    bulkhead: bulkhead && new Bulkhead({ ...bulkhead, toolName: name }),
  };
}
