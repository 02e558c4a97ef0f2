import { describe, expect, it } from '@jest/globals';
import { countTokens } from 'gpt-tokenizer';
import { VirtualClock } from '../clock/virtual-clock.js';
import { fitOutput } from './output-budget.js';
import { OutputHandleStore } from './output-handles.js';
import { readOutputPage } from './read-output-page.js';
import { estimateTokens } from './token-estimate.js';

const searchResults = Array.from({ length: 12_000 }, (_, index) => ({
  url: `https://example.com/articles/${index}`,
  title: `Result ${index}: a page about circuit breakers and retries`,
  snippet: 'Retries with backoff and jitter, a breaker per upstream, a budget per call. '.repeat(2),
}));

describe('fitOutput', () => {
  it('says what was cut and where the rest is', () => {
    const handles = new OutputHandleStore();
    const fitted = fitOutput(
      searchResults,
      { maxTokens: 2_000 },
      { keep: (value) => handles.keep(value) },
    );
    const read = fitted.output as { note: string; output: unknown[] };
    expect(read.note).toMatch(
      /^Output cut to fit 2,000 tokens: showing \d+ of 12,000 items; \d\.\d MB omitted\. The whole output is kept for a while: call read_tool_output with \{"handle":"out_[0-9a-f]{16}","offset":0\}/,
    );
    expect(read.output).toEqual(searchResults.slice(0, read.output.length));
    expect(handles.get(fitted.cut?.handle ?? '')).toEqual(searchResults);
  });

  it('leaves an output within budget as it is, the same object', () => {
    const output = { tempC: 21 };
    expect(fitOutput(output, { maxTokens: 256 }).output).toBe(output);
  });

  it('wraps an output with notes as { note, output }', () => {
    expect(
      fitOutput({ tempC: 21 }, { maxTokens: 256 }, { notes: ['Stale: from 2 min ago.'] }).output,
    ).toEqual({
      note: 'Stale: from 2 min ago.',
      output: { tempC: 21 },
    });
  });

  it('meets maxTokens as counted by a real tokenizer when given one', () => {
    const fitted = fitOutput(searchResults, { maxTokens: 1_000 }, { estimateTokens: countTokens });
    expect(countTokens(JSON.stringify(fitted.output))).toBeLessThanOrEqual(1_000);
  });
});

describe('estimateTokens', () => {
  it('counts at least as many tokens as o200k for JSON and English text', () => {
    for (const text of [
      JSON.stringify(searchResults.slice(0, 200)),
      'The quick brown fox. '.repeat(300),
    ]) {
      expect(estimateTokens(text)).toBeGreaterThanOrEqual(countTokens(text));
    }
  });
});

describe('OutputHandleStore', () => {
  it('forgets an output after keepMs, and the oldest past maxEntries', async () => {
    const clock = new VirtualClock();
    const store = new OutputHandleStore({ keepMs: 1_000, maxEntries: 2, clock });
    const first = store.keep('a');
    const second = store.keep('b');
    store.keep('c');
    expect(store.get(first)).toBeUndefined();
    expect(store.get(second)).toBe('b');
    await clock.advanceBy(1_000);
    expect(store.get(second)).toBeUndefined();
  });
});

describe('readOutputPage', () => {
  it('reads an array by items', () => {
    const page = readOutputPage(searchResults, 40, 4_000);
    expect(page.offset).toBe(40);
    expect(page.items?.[0]).toEqual(searchResults[40]);
    expect(page.nextOffset).toBe(40 + (page.items?.length ?? 0));
  });
});
