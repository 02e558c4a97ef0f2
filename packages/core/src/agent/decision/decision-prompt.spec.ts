import { describe, expect, it } from '@jest/globals';
import { encode } from 'gpt-tokenizer';
import { failed } from '../fixtures.test.js';
import {
  DECISION_PROMPT_GUIDANCE,
  buildDecisionGuidance,
  buildDecisionPrompt,
} from './decision-prompt.js';
import { failuresToPromptFor } from './decision-prompt-policy.js';

const timeout = failed({ id: 'c1', name: 'search' }, 'timeout', { retryAfterMs: 3000 });
const denied = failed({ id: 'c2', name: 'book' }, 'permission_denied', {
  retryCount: 0,
  retryMax: 0,
});
const typo = failed({ id: 'c3', name: 'book' }, 'invalid_input', { retryCount: 0, retryMax: 0 });
const paid = failed({ id: 'c4', name: 'pay' }, 'timeout', {
  recoverable: false,
  effect: 'unknown',
  retryCount: 0,
  retryMax: 0,
});

describe('decision prompt', () => {
  it('states type, recoverability and retry facts, then asks to CONTINUE or STOP', () => {
    expect(buildDecisionPrompt([timeout])).toBe(
      [
        'Tool failed:',
        '- search (c1): timeout, recoverable, retries 2/2, retry after 3000ms',
        'Decide: CONTINUE with a different approach, or STOP by calling complete.',
      ].join('\n'),
    );
    expect(buildDecisionPrompt([timeout, denied], 'attempt_completion')).toBe(
      [
        '2 tools failed:',
        '- search (c1): timeout, recoverable, retries 2/2, retry after 3000ms',
        '- book (c2): permission_denied, not recoverable, retries 0/0',
        'Decide: CONTINUE with a different approach, or STOP by calling attempt_completion.',
      ].join('\n'),
    );
  });

  it('calls a typo recoverable, and says when a failed call may have taken effect', () => {
    expect(buildDecisionPrompt([typo, paid]).split('\n').slice(1, 3)).toEqual([
      '- book (c3): invalid_input, recoverable, retries 0/0',
      '- pay (c4): timeout, not recoverable, may have taken effect, retries 0/0',
    ]);
  });

  it('stays terse (o200k tokens)', () => {
    expect(encode(buildDecisionPrompt([timeout])).length).toBeLessThanOrEqual(45);
    expect(encode(DECISION_PROMPT_GUIDANCE).length).toBeLessThanOrEqual(80);
  });

  it('names the configured completion tool in the guidance', () => {
    expect(DECISION_PROMPT_GUIDANCE).toContain('STOP by calling complete');
    expect(buildDecisionGuidance('finish')).toContain('STOP by calling finish');
  });
});

describe('failuresToPromptFor', () => {
  it('covers every failure, only unrecoverable ones, or none until N in a row', () => {
    expect(failuresToPromptFor('every-failure', [timeout, denied], 1)).toEqual([timeout, denied]);
    expect(failuresToPromptFor('unrecoverable-only', [timeout, denied], 1)).toEqual([denied]);
    expect(failuresToPromptFor('unrecoverable-only', [timeout], 1)).toEqual([]);
    expect(failuresToPromptFor({ afterConsecutiveFailures: 2 }, [timeout], 1)).toEqual([]);
    expect(failuresToPromptFor({ afterConsecutiveFailures: 2 }, [timeout], 2)).toEqual([timeout]);
    expect(failuresToPromptFor('never', [denied], 9)).toEqual([]);
  });
});
