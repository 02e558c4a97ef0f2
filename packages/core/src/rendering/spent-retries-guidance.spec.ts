import { describe, expect, it } from '@jest/globals';
import { DECISION_PROMPT_GUIDANCE } from '../agent/decision/decision-prompt.js';
import { createToolError } from '../classification/create-tool-error.js';
import { TOOL_ERROR_TYPES, TOOL_ERROR_TYPE_TRAITS } from '../errors/tool-error-type.js';
import { createToolFailure } from '../results/create-tool-failure.js';
import { renderFailureText } from './render-failure-text.js';

const RETRYABLE = TOOL_ERROR_TYPES.filter((type) => TOOL_ERROR_TYPE_TRAITS[type].retryable);
/** Wording that invites the model to repeat the call the pipeline has just given up on. */
const INVITES_A_RETRY = /Retrying may help|Retry (shortly|once|later|in a moment)/;

function spentFailure(type: (typeof RETRYABLE)[number], retries: number, retryAfterMs?: number) {
  const error = createToolError(type, 'The upstream did not answer.', { retryAfterMs });
  return createToolFailure(error, {
    tool: 'get_weather',
    callId: 'call_1',
    durationMs: 900,
    retryCount: retries,
    retryMax: retries,
    // Retried by the pipeline: an idempotent tool.
    sideEffects: false,
  });
}

describe('guidance after the pipeline has spent its retries', () => {
  it('covers network, timeout, upstream_unavailable, rate_limited and bulkhead_full', () => {
    expect(RETRYABLE).toEqual(
      expect.arrayContaining(['network', 'timeout', 'upstream_unavailable', 'rate_limited']),
    );
    expect(DECISION_PROMPT_GUIDANCE).toContain(
      'Never repeat a failed call with the same arguments.',
    );
  });

  it.each(RETRYABLE)('%s: says it already retried, and points elsewhere', (type) => {
    for (const retries of [1, 2, 5]) {
      const failure = spentFailure(type, retries);
      const text = renderFailureText(failure);
      expect(text).not.toMatch(INVITES_A_RETRY);
      expect(failure.suggestions.join(' ')).not.toMatch(INVITES_A_RETRY);
      expect(text).toContain(`Already retried ${retries} ${retries === 1 ? 'time' : 'times'}.`);
      expect(text).toMatch(/Next: .*(another tool|stop)/);
    }
  });

  it.each(RETRYABLE)('%s: names the wait when Retry-After is known', (type) => {
    const text = renderFailureText(spentFailure(type, 2, 2000));
    expect(text).not.toMatch(INVITES_A_RETRY);
    expect(text).toMatch(/Next: Wait 2s before using this tool again, or use another tool\./);
  });

  it('still says a retry may help when the pipeline made none, for a tool without side effects', () => {
    const failure = createToolFailure(createToolError('network', 'socket hang up'), {
      tool: 'get_weather',
      callId: 'call_2',
      durationMs: 40,
      sideEffects: false,
    });
    expect(renderFailureText(failure)).toContain('Retrying may help.');
  });

  it('never invites a retry of a tool with side effects whose request may have left', () => {
    for (const type of ['network', 'timeout', 'cancelled'] as const) {
      const failure = createToolFailure(createToolError(type, 'socket hang up'), {
        tool: 'send_email',
        callId: 'call_2',
        durationMs: 40,
      });
      expect(renderFailureText(failure)).not.toMatch(INVITES_A_RETRY);
      expect(renderFailureText(failure)).toContain('It may have taken effect.');
    }
  });
});
