import './expect-augmentation.js';
import { describe, expect, it } from '@jest/globals';
import type { ToolFailure, ToolResult } from '@toolshield/core';
import { createNodeNetworkError } from '../faults/node-network-error.js';
import { markChaos } from '../marking/chaos-marker.js';
import { chaosMatchers, installChaosMatchers } from './matchers.js';

installChaosMatchers(expect);

const result: ToolResult = {
  success: true,
  tool: 'search',
  callId: 'c1',
  output: { hits: 3 },
  metadata: { attempts: 3, durationMs: 120 },
};

const failure: ToolFailure = {
  success: false,
  tool: 'search',
  callId: 'c2',
  error: 'The search service reset the connection.',
  errorType: 'network',
  recoverable: true,
  retryCount: 2,
  retryMax: 2,
  suggestions: [],
  metadata: { attempts: 3, durationMs: 900, chaos: true, chaosFault: 'network:ECONNRESET' },
};

/** The message of a failed expectation. */
function messageOf(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the expectation passed');
}

describe('chaos matchers', () => {
  it('toBeToolFailure passes for failures (of the type) and explains a miss', () => {
    expect(failure).toBeToolFailure();
    expect(failure).toBeToolFailure('network');
    expect(result).not.toBeToolFailure();
    expect(messageOf(() => expect(failure).toBeToolFailure('timeout'))).toBe(
      'expect(received).toBeToolFailure("timeout")\n\n' +
        'Expected: a ToolFailure with errorType "timeout"\n' +
        'Received: ToolFailure with errorType "network" (tool "search", call "c2", retried 2x, ' +
        "chaos network:ECONNRESET): 'The search service reset the connection.'",
    );
    expect(messageOf(() => expect(failure).not.toBeToolFailure('network'))).toContain(
      'Expected: not a ToolFailure with errorType "network"',
    );
  });

  it('toBeToolResult passes for results and shows what came instead', () => {
    expect(result).toBeToolResult();
    expect(failure).not.toBeToolResult();
    expect(messageOf(() => expect('done').toBeToolResult())).toBe(
      "expect(received).toBeToolResult()\n\nExpected: a ToolResult\nReceived: 'done'",
    );
  });

  it('toHaveRetried reads retryCount of failures and attempts - 1 of results', () => {
    expect(failure).toHaveRetried(2);
    expect(result).toHaveRetried(2);
    expect(result).not.toHaveRetried(0);
    expect(messageOf(() => expect(result).toHaveRetried(1))).toBe(
      'expect(received).toHaveRetried(1)\n\n' +
        'Expected: an outcome retried 1 time\n' +
        'Received: ToolResult (tool "search", call "c1", retried 2x)',
    );
    expect(messageOf(() => expect({ nope: true }).toHaveRetried(0))).toContain(
      'Received: { nope: true }',
    );
  });

  it('toBeChaosInjected tells injected errors and payloads from real ones', () => {
    expect(
      markChaos(createNodeNetworkError('ECONNRESET'), { fault: 'network:ECONNRESET' }),
    ).toBeChaosInjected();
    expect(failure).toBeChaosInjected();
    expect(createNodeNetworkError('ECONNRESET')).not.toBeChaosInjected();
    expect(messageOf(() => expect(result).toBeChaosInjected())).toContain(
      'Expected: a value injected by chaos\nReceived: ToolResult',
    );
  });

  it('is a plain object of functions, usable with any expect.extend', () => {
    expect(Object.keys(chaosMatchers)).toEqual([
      'toBeToolFailure',
      'toBeToolResult',
      'toHaveRetried',
      'toBeChaosInjected',
    ]);
    expect(chaosMatchers.toBeToolResult.call({}, result).pass).toBe(true);
  });
});
