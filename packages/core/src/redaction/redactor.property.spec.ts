import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { createFailureSanitizer } from './failure-sanitizer.js';
import { defaultRedactor } from './redactor.js';

/** Fragments that the rules react to, mixed with noise, so the properties reach every rule. */
const fragment = fc.constantFrom(
  'password=',
  '"token":"',
  '\\"secret\\":\\"',
  'Bearer ',
  'https://u:',
  '@host/',
  '-----BEGIN PRIVATE KEY-----',
  '\n',
  '\\n    at f (/x.js:1:2)',
  'ghp_',
  'sk-',
  'eyJ',
  '.',
  '_',
  ' ',
  'AKIA',
  'key=',
  ':',
  '"',
);
const text = fc
  .array(fc.oneof(fragment, fc.string({ maxLength: 24 })), { maxLength: 40 })
  .map((parts) => parts.join(''));

describe('redaction (properties)', () => {
  it('never throws, and redacting twice changes nothing more', () => {
    // Found by this property: a URL whose "password" another rule had already redacted.
    const found = defaultRedactor.redactText('https://u:password=?;@');
    expect(defaultRedactor.redactText(found)).toBe(found);
    fc.assert(
      fc.property(text, (input) => {
        const once = defaultRedactor.redactText(input);
        expect(defaultRedactor.redactText(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
  });

  it('the sanitizer always gives one line within the cap, with no frame', () => {
    const sanitizer = createFailureSanitizer();
    fc.assert(
      fc.property(text, (input) => {
        const line = sanitizer.text(input);
        expect(line.length).toBeLessThanOrEqual(200);
        expect(line).not.toMatch(/\n|\\n\s*at\s/);
      }),
      { numRuns: 2000 },
    );
  });
});
