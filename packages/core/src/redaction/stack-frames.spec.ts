import { describe, expect, it } from '@jest/globals';
import { isStackFrameLine, stripStackFrames } from './stack-frames.js';

describe('stripStackFrames', () => {
  it('drops frame lines and keeps the message lines', () => {
    const stack = new Error('boom').stack ?? '';
    expect(stripStackFrames(stack)).toBe('Error: boom');
    expect(stripStackFrames('first\n    at async Promise.all (index 0)\nlast')).toBe('first\nlast');
  });

  it('drops frames escaped inside one line', () => {
    expect(
      stripStackFrames(
        '{"stack":"Error: boom\\n    at run (/app/x.js:1:2)\\n    at main (/app/y.js:3:4)"}',
      ),
    ).toBe('{"stack":"Error: boom"}');
  });

  it.each([
    ['    at run (/app/x.js:1:2)', true],
    ['    at file:///app/x.js:3:4', true],
    ['    at new Foo (<anonymous>)', true],
    ['    ... 4 lines matching cause stack trace ...', true],
    ['at least 3 characters are needed', false],
    ['meet me at noon', false],
  ])('tells a frame line: %j', (line, frame) => {
    expect(isStackFrameLine(line)).toBe(frame);
  });
});
