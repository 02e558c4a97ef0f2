import { describe, expect, it } from '@jest/globals';
import { createFailureSanitizer } from './failure-sanitizer.js';
import { REDACTED } from './redaction-rule.js';
import { createRedactor } from './redactor.js';

const sanitizer = createFailureSanitizer();
const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

describe('createFailureSanitizer', () => {
  it('redacts before it cuts, so a secret straddling the cut leaks no part of itself', () => {
    const text = `${'a'.repeat(180)} ${token} and trailing words`; // the token spans 181-220
    const line = sanitizer.text(text);
    expect(line.length).toBeLessThanOrEqual(200);
    expect(line).not.toContain('ghp_');
    expect(line).toContain(REDACTED);
  });

  it('keeps one line with no frame, first meaningful line first', () => {
    expect(sanitizer.text('\n    at run (/app/x.js:1:2)\nreal reason\n    at x (/y.js:1:1)')).toBe(
      'real reason',
    );
  });

  it('sanitises metadata: secret keys hidden, stacks dropped, frames removed, strings capped', () => {
    expect(
      sanitizer.value({
        stack: 'Error: x\n    at run (/app/x.js:1:2)',
        body: `Error: x\n    at run (/app/x.js:1:2)\nsecond line ${token}`,
        headers: { authorization: 'Bearer abc' },
        long: 'y'.repeat(5000),
      }),
    ).toEqual({
      body: `Error: x\nsecond line ${REDACTED}`,
      headers: { authorization: REDACTED },
      long: `${'y'.repeat(999)}…`,
    });
  });

  it('sanitises the events that carry text, with your rules too', () => {
    const own = createFailureSanitizer({ redactor: createRedactor([/acme_\w+/g]) });
    const base = { at: 0, callId: 'c', tool: 't' };
    expect(
      own.event({
        ...base,
        type: 'attempt.failed',
        attempt: 1,
        startedAt: 0,
        errorType: 'internal',
        message: `acme_x1 ${token}`,
      }),
    ).toMatchObject({ message: `${REDACTED} ${REDACTED}` });
    const started = { ...base, type: 'call.started' as const };
    expect(own.event(started)).toBe(started);
  });
});

describe('createFailureSanitizer with a redactor of your own', () => {
  it('copies metadata through its redactValue when it does not say which keys it hides', () => {
    const own = createFailureSanitizer({
      redactor: {
        redactText: (text) => text.replace('pw1', REDACTED),
        redactValue: (value) => ({ ...(value as object), extra: 'hidden by you' }),
      },
    });
    expect(own.value({ note: 'pw1', stack: 'Error: x\n    at y (/z.js:1:1)' })).toEqual({
      note: 'pw1',
      extra: 'hidden by you',
    });
  });
});
