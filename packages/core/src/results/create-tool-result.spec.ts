import { describe, expect, it } from '@jest/globals';
import { createToolResult } from './create-tool-result.js';

describe('createToolResult', () => {
  it('produces exactly the ToolResult shape', () => {
    expect(
      createToolResult(
        { tempC: 21 },
        {
          tool: 'get_weather',
          callId: 'call_1',
          durationMs: 84,
          retryCount: 1,
          retryMax: 3,
          metadata: { chaos: true },
        },
      ),
    ).toEqual({
      success: true,
      tool: 'get_weather',
      callId: 'call_1',
      output: { tempC: 21 },
      metadata: { chaos: true, attempts: 2, durationMs: 84 },
    });
  });

  it('counts one attempt by default and keeps context metadata from overriding the facts', () => {
    const result = createToolResult('ok', {
      tool: 't',
      callId: 'c',
      durationMs: 5,
      metadata: { attempts: 99 },
    });
    expect(result.metadata).toEqual({ attempts: 1, durationMs: 5 });
  });
});
