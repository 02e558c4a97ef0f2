/**
 * The dashboard's first paint of a big run: a stored run of 500 events (model steps, parallel
 * tool calls, retries), opened by its link (`/#run=<id>`) in headless Chromium against the
 * built service. Reported: time from navigation start to the waterfall drawn with every event
 * (the page's `waterfall-drawn` mark after the last one), and the browser's first contentful
 * paint, median over fresh page loads.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { median } from './stats.js';

const here = dirname(fileURLToPath(import.meta.url));
const app = join(resolve(here, '../../..'), 'apps', 'sample-agent', 'dist');
const EVENTS = 500;
const LOADS = Number(process.env.BENCH_PAINT_LOADS ?? 7);

const chromiumPath =
  process.env.CHROMIUM_PATH ??
  (() => {
    try {
      return execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
    } catch {
      return '';
    }
  })();

interface StoredEvent {
  runId: string;
  seq: number;
  at: number;
  data: Record<string, unknown>;
}

/** A finished run of exactly {@link EVENTS} events, 10 ms apart. */
function syntheticRun(runId: string, start: number): StoredEvent[] {
  const data: Record<string, unknown>[] = [
    { type: 'run.started', task: 'Search many topics.', scenario: 'bench', model: 'bench' },
  ];
  let step = 0;
  let call = 0;
  while (data.length < EVENTS - 1) {
    step += 1;
    const ids = Array.from({ length: 8 }, () => `call_${(call += 1)}`);
    data.push({ type: 'model.request', step, messages: step * 9 });
    data.push({
      type: 'model.reply',
      step,
      content: '',
      toolCalls: ids.map((id) => ({ id, name: 'web_search', arguments: '{"query":"q"}' })),
    });
    for (const [index, callId] of ids.entries()) {
      const tool = 'web_search';
      data.push({ type: 'tool.requested', callId, tool, arguments: '{"query":"q"}' });
      data.push({ type: 'call.started', callId, tool });
      if (index % 3 === 0) {
        data.push({
          type: 'attempt.failed',
          callId,
          tool,
          attempt: 1,
          errorType: 'rate_limited',
          message: '429',
        });
        data.push({
          type: 'retry.scheduled',
          callId,
          tool,
          attempt: 2,
          delayMs: 30,
          errorType: 'rate_limited',
        });
      }
      data.push({ type: 'call.succeeded', callId, tool, result: { output: { results: [] } } });
      data.push({ type: 'tool.result', callId, tool, isError: false, content: '{"results":[]}' });
    }
  }
  const events = data.slice(0, EVENTS - 1);
  events.push({
    type: 'run.finished',
    status: 'completed',
    reason: { code: 'completed', message: 'done' },
    finalAnswer: 'done',
  });
  return events.map((event, index) => ({
    runId,
    seq: index + 1,
    at: start + index * 10,
    data: { ...event, ...('callId' in event ? { at: start + index * 10 } : {}) },
  }));
}

if (!chromiumPath || !existsSync(chromiumPath)) {
  process.stdout.write('\nDashboard first paint: skipped, no Chromium (set CHROMIUM_PATH).\n');
} else {
  const { createServer } = (await import(
    pathToFileURL(join(app, 'http/create-server.js')).href
  )) as {
    createServer: (options: unknown) => Promise<{
      listen: (port: number, host: string) => Promise<unknown>;
      getHttpServer: () => { address: () => AddressInfo };
      close: () => Promise<void>;
    }>;
  };
  const { InMemoryRunStore } = (await import(
    pathToFileURL(join(app, 'runs/in-memory-run-store.js')).href
  )) as {
    InMemoryRunStore: new () => {
      createRun: (run: unknown) => Promise<void>;
      appendEvents: (events: StoredEvent[]) => Promise<void>;
    };
  };
  const store = new InMemoryRunStore();
  const server = await createServer({ store, logger: false });
  await server.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${server.getHttpServer().address().port}`;
  const id = '00000000-0000-4000-8000-000000000500';
  const start = Date.now() - EVENTS * 10;
  await store.createRun({
    id,
    task: 'Search many topics.',
    model: 'bench',
    status: 'completed',
    createdAt: new Date(start).toISOString(),
    finishedAt: new Date(start + EVENTS * 10).toISOString(),
  });
  await store.appendEvents(syntheticRun(id, start));
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const drawn: number[] = [];
  const fcp: number[] = [];
  /** From the last event received to the waterfall drawn: the page's own work. */
  const afterEvents: number[] = [];
  for (let load = 0; load <= LOADS; load++) {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${base}/#run=${id}`);
    // Page scripts as strings: this file is compiled without the DOM's types.
    await page.waitForFunction(
      `document.querySelector('#trace li[data-type="run.finished"]') !== null &&
       performance.getEntriesByName('waterfall-drawn').length > 0 &&
       document.querySelectorAll('#wf-chart g.row').length >= ${Math.floor(EVENTS / 6)}`,
    );
    await page.evaluate('new Promise((done) => requestAnimationFrame(done))');
    const times = (await page.evaluate(`({
      drawn: performance.getEntriesByName('waterfall-drawn').at(-1)?.startTime ?? NaN,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      eventsEnd: performance.getEntriesByType('resource').find((r) => r.name.includes('/events'))?.responseEnd ?? NaN,
    })`)) as { drawn: number; fcp: number; eventsEnd: number };
    await page.close();
    if (load === 0) continue; // warm-up: the browser's first start
    drawn.push(times.drawn);
    fcp.push(times.fcp);
    afterEvents.push(times.drawn - times.eventsEnd);
  }
  await browser.close();
  await server.close();
  const paint = median(drawn);
  process.stdout.write(
    [
      '',
      '### Dashboard first paint, a run of 500 events (Chromium, 1440 × 900)',
      '',
      '| measure | median (ms) | min–max (ms) |',
      '|---|---:|---:|',
      `| navigation → first contentful paint | ${median(fcp).toFixed(0)} | ${Math.min(...fcp).toFixed(0)}–${Math.max(...fcp).toFixed(0)} |`,
      `| navigation → waterfall drawn with all ${EVENTS} events | ${paint.toFixed(0)} | ${Math.min(...drawn).toFixed(0)}–${Math.max(...drawn).toFixed(0)} |`,
      `| last event received → waterfall drawn | ${median(afterEvents).toFixed(0)} | ${Math.min(...afterEvents).toFixed(0)}–${Math.max(...afterEvents).toFixed(0)} |`,
      '',
      `${LOADS} fresh page loads after a warm-up, load average ${loadavg()[0]?.toFixed(1)}; goal ≤ 500 ms: ${paint <= 500 ? 'met' : 'NOT met'}`,
      '',
    ].join('\n'),
  );
}
