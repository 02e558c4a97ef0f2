import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { Tool } from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

const rows = Array.from({ length: 12_000 }, (_, id) => ({
  id,
  line: `log line ${id}: GET /api/items 200 12ms`,
}));

@Injectable()
class LogTools {
  @Tool({ description: 'Fetches the whole log.' })
  fetch_log() {
    return rows;
  }

  @Tool({ description: 'Fetches the log, small budget.', output: { maxBytes: 2_000 } })
  fetch_log_small() {
    return { total: rows.length, rows };
  }

  @Tool({ description: 'Fetches the log, no budget.', output: false })
  fetch_log_raw() {
    return rows;
  }

  @Tool({ description: 'A small answer.' })
  small() {
    return { ok: true };
  }
}

describe('output budgets through ToolExecutor', () => {
  let app: Awaited<ReturnType<typeof createToolApp>>;
  afterEach(() => app.close());

  it('cuts an output over the default budget to valid JSON with a note, and says so in metadata', async () => {
    app = await createToolApp([LogTools]);
    const outcome = await app.executor.execute({ id: 'c1', name: 'fetch_log', arguments: {} });
    if (!outcome.success) throw new Error(outcome.error);
    const read = outcome.output as { note: string; output: unknown[] };
    expect(read.note).toMatch(
      /^Output cut to fit 25,000 tokens: showing [\d,]+ of 12,000 items; [\d.]+ (KB|MB) omitted\.$/,
    );
    expect(read.output).toEqual(rows.slice(0, read.output.length));
    expect(Buffer.byteLength(JSON.stringify(outcome.output))).toBeLessThanOrEqual(100_000);
    expect(outcome.metadata.output).toMatchObject({ cut: true, items: { total: 12_000 } });
  });

  it('keeps the small fields of an object whole and cuts the big one, within a tool budget', async () => {
    app = await createToolApp([LogTools]);
    const outcome = await app.executor.execute({
      id: 'c2',
      name: 'fetch_log_small',
      arguments: {},
    });
    if (!outcome.success) throw new Error(outcome.error);
    const read = outcome.output as { note: string; output: { total: number; rows: unknown[] } };
    expect(read.output.total).toBe(12_000);
    expect(Buffer.byteLength(JSON.stringify(outcome.output))).toBeLessThanOrEqual(2_000);
  });

  it('passes outputs through untouched with output: false, and small ones always', async () => {
    app = await createToolApp([LogTools]);
    const raw = await app.executor.execute({ id: 'c3', name: 'fetch_log_raw', arguments: {} });
    expect(raw).toMatchObject({ success: true, output: rows });
    const small = await app.executor.execute({ id: 'c4', name: 'small', arguments: {} });
    expect(small).toMatchObject({ success: true, output: { ok: true } });
    expect(small.metadata.output).toBeUndefined();
  });

  it('module defaults.output: false turns budgets off', async () => {
    app = await createToolApp([LogTools], { defaults: { output: false } });
    const outcome = await app.executor.execute({ id: 'c5', name: 'fetch_log', arguments: {} });
    expect(outcome).toMatchObject({ success: true, output: rows });
  });

  it('the opt-in read_tool_output tool reads the rest by the handle in the note', async () => {
    app = await createToolApp([LogTools], { readMoreTool: true });
    const cut = await app.executor.execute({ id: 'c6', name: 'fetch_log_small', arguments: {} });
    if (!cut.success) throw new Error(cut.error);
    const handle = /"handle":"(out_[0-9a-f]+)"/.exec((cut.output as { note: string }).note)?.[1];
    expect(handle).toBeDefined();
    const page = await app.executor.execute({
      id: 'c7',
      name: 'read_tool_output',
      arguments: { handle, offset: 0 },
    });
    expect(page).toMatchObject({ success: true, output: { unit: 'characters', offset: 0 } });
    const missing = await app.executor.execute({
      id: 'c8',
      name: 'read_tool_output',
      arguments: { handle: 'out_gone' },
    });
    expect(missing).toMatchObject({ success: false, errorType: 'not_found' });
  });

  it('has no read_tool_output unless asked for', async () => {
    app = await createToolApp([LogTools]);
    expect(app.registry.names()).not.toContain('read_tool_output');
  });
});
