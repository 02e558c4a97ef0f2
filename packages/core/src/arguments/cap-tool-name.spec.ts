import { describe, expect, it } from '@jest/globals';
import { MAX_ECHOED_TOOL_NAME_LENGTH, capToolName } from './cap-tool-name.js';

describe('capToolName', () => {
  it('keeps names up to the limit as they are', () => {
    const longest = 'a'.repeat(MAX_ECHOED_TOOL_NAME_LENGTH);
    expect(capToolName('get_weather')).toBe('get_weather');
    expect(capToolName(longest)).toBe(longest);
  });

  it('cuts longer names to the limit, ending in an ellipsis', () => {
    const capped = capToolName('x'.repeat(100_000));
    expect(capped).toHaveLength(MAX_ECHOED_TOOL_NAME_LENGTH);
    expect(capped.endsWith('x…')).toBe(true);
  });

  it('never leaves half a surrogate pair', () => {
    const capped = capToolName(`${'a'.repeat(MAX_ECHOED_TOOL_NAME_LENGTH - 2)}😀😀😀`);
    expect(capped).toBe(`${'a'.repeat(MAX_ECHOED_TOOL_NAME_LENGTH - 2)}…`);
  });
});
