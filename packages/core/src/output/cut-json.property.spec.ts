import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { cutJson } from './cut-json.js';
import { fitOutput } from './output-budget.js';
import { readOutputPage } from './read-output-page.js';

/** Strings of any code points, lone surrogates, controls, quotes and backslashes included. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({
    unit: fc.constantFrom('"', '\\', '\n', '\u0001', '\ud83d', '\ude00', '😀', 'é', '東', 'a'),
    maxLength: 80,
  }),
);

/** Huge strings: a repeated piece, so they are big without costing much to generate. */
const hugeText = fc
  .tuple(anyText, fc.integer({ min: 100, max: 3_000 }))
  .map(([piece, times]) => (piece === '' ? 'x' : piece).repeat(times));

/** Nested JSON values with unicode keys and strings, some of them huge. */
const json = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -1.5e300, 12_000),
    anyText,
    hugeText,
    fc.array(tie('node'), { maxLength: 30 }),
    fc.dictionary(fc.oneof(anyText, fc.constant('__proto__')), tie('node'), { maxKeys: 8 }),
  ),
})).node;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const budgets = fc.integer({ min: 2, max: 20_000 });

function utf8(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

describe('cutJson over random JSON', () => {
  it('gives a value whose JSON is valid, well-formed and within the budget', () => {
    fc.assert(
      fc.property(json, budgets, (value, maxBytes) => {
        const { value: cut, cut: wasCut, summary } = cutJson(value, maxBytes);
        const text = JSON.stringify(cut);
        expect(JSON.parse(text)).toEqual(cut);
        expect(LONE_SURROGATE.test(text)).toBe(false);
        if (wasCut) {
          // A value too big even for "" or [] becomes null: 4 bytes.
          expect(utf8(text)).toBeLessThanOrEqual(Math.max(maxBytes, 4));
          expect(summary.shownBytes).toBe(utf8(text));
        } else {
          expect(cut).toBe(value);
        }
        expect(summary.totalBytes).toBe(utf8(JSON.stringify(value)));
      }),
    );
  });

  it('keeps a prefix of each cut string: never half a surrogate pair or an escape', () => {
    fc.assert(
      fc.property(hugeText, fc.integer({ min: 8, max: 5_000 }), (text, maxBytes) => {
        const cut = cutJson(text, maxBytes).value as string;
        if (cut === text) return;
        const kept = cut.slice(0, -1);
        expect(cut.endsWith('…')).toBe(true);
        expect(text.startsWith(kept)).toBe(true);
        const last = kept.charCodeAt(kept.length - 1);
        const next = text.charCodeAt(kept.length);
        const splitsPair = last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
        expect(splitsPair).toBe(false);
      }),
    );
  });
});

describe('fitOutput over random JSON', () => {
  it('what the model reads is valid JSON within maxBytes, with a note when cut', () => {
    fc.assert(
      fc.property(
        json,
        fc.integer({ min: 1_024, max: 30_000 }),
        fc.array(anyText, { maxLength: 2 }),
        (value, maxBytes, notes) => {
          const fitted = fitOutput(
            value,
            { maxBytes },
            { notes, keep: () => 'out_0123456789abcdef' },
          );
          const text = JSON.stringify(fitted.output) ?? 'null';
          expect(JSON.parse(text)).toEqual(fitted.output);
          if (fitted.cut || notes.length > 0) {
            expect(fitted.output).toEqual(expect.objectContaining({ note: expect.any(String) }));
          }
          if (fitted.cut) expect(utf8(text)).toBeLessThanOrEqual(maxBytes);
          else if (notes.length === 0) expect(fitted.output).toBe(value);
        },
      ),
    );
  });

  it('maxTokens holds for the default estimate (4 bytes a token)', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 256, max: 5_000 }), (value, maxTokens) => {
        const text = JSON.stringify(fitOutput(value, { maxTokens }).output) ?? 'null';
        expect(Math.ceil(utf8(text) / 4)).toBeLessThanOrEqual(maxTokens);
      }),
    );
  });
});

describe('readOutputPage over random JSON', () => {
  it('pages through the whole output, each page within the budget', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 512, max: 8_000 }), (value, maxBytes) => {
        const seen: unknown[] = [];
        let text = '';
        let offset: number | undefined = 0;
        let pages = 0;
        while (offset !== undefined && pages < 10_000) {
          const page = readOutputPage(value, offset, maxBytes);
          expect(utf8(JSON.stringify(page))).toBeLessThanOrEqual(maxBytes);
          if (page.items) seen.push(...page.items);
          text += page.text ?? '';
          offset = page.nextOffset;
          pages += 1;
        }
        if (Array.isArray(value)) expect(seen).toHaveLength(value.length);
        else expect(text).toBe(typeof value === 'string' ? value : JSON.stringify(value));
      }),
    );
  });
});
