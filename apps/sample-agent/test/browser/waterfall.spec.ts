import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserDescribe, launchBrowser, SCREENSHOTS } from '../fixtures/browser.js';
import { readEventStream } from '../fixtures/sse-client.js';
import { startTestServer } from '../fixtures/test-server.js';

const describeWithBrowser = browserDescribe();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

jest.setTimeout(120_000);

/** An attempt bar as drawn: its box and the times it stands for. */
interface DrawnAttempt {
  readonly tool: string;
  readonly attempt: number;
  readonly outcome: string;
  readonly x: number;
  readonly width: number;
  readonly start: number;
  readonly end: number;
}

describeWithBrowser('the dashboard with time on it (Chromium)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const problems: string[] = [];
  const runs: Record<string, string> = {};

  async function runToEnd(scenario: string): Promise<string> {
    const scenarios = (await server.request('GET', '/api/scenarios')).body as {
      name: string;
      task: string;
    }[];
    const task = scenarios.find((candidate) => candidate.name === scenario)?.task;
    const created = await server.request('POST', '/api/runs', { task, scenario });
    const id = created.body.id as string;
    await readEventStream(`${server.baseUrl}/api/runs/${id}/events`);
    return id;
  }

  /** Opens a run by its link and waits until its waterfall shows the end. */
  async function openRun(id: string): Promise<void> {
    await page.goto(`${server.baseUrl}/#run=${id}`);
    await page.locator('#trace-title', { hasText: id.slice(0, 8) }).waitFor();
    await page.waitForSelector('#trace li[data-type="run.finished"]');
    // The frame that draws the last event.
    await page.evaluate('new Promise((resolve) => requestAnimationFrame(resolve))');
  }

  const attempts = () =>
    page.$$eval('#wf-chart g.row.call rect.attempt', (rects) =>
      rects.map((rect) => ({
        tool: rect.parentElement?.getAttribute('data-tool') ?? '',
        attempt: Number(rect.getAttribute('data-attempt')),
        outcome: rect.getAttribute('data-outcome') ?? '',
        x: Number(rect.getAttribute('x')),
        width: Number(rect.getAttribute('width')),
        start: Number(rect.getAttribute('data-start')),
        end: Number(rect.getAttribute('data-end')),
      })),
    ) as Promise<DrawnAttempt[]>;
  const pxPerMs = () =>
    page.$eval('#wf-chart', (svg) => Number(svg.getAttribute('data-px-per-ms')));

  beforeAll(async () => {
    server = await startTestServer();
    runs['web-research'] = await runToEnd('web-research');
    runs['outage'] = await runToEnd('outage');
    runs['kube-deploy-forbidden'] = await runToEnd('kube-deploy-forbidden');
    browser = await launchBrowser({ width: 1440, height: 1000 });
    page = browser.page;
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('draws a bar per attempt, its width proportional to its duration, and the 1 s Retry-After as a gap', async () => {
    await openRun(runs['web-research'] as string);
    const scale = await pxPerMs();
    const drawn = await attempts();
    const run = await server.request('GET', `/api/runs/${runs['web-research'] as string}`);
    const calls = run.body.toolCalls as { tool: string; attempts: number }[];
    for (const call of calls) {
      expect(drawn.filter((bar) => bar.tool === call.tool)).toHaveLength(call.attempts);
    }
    for (const bar of drawn) {
      const expected = (bar.end - bar.start) * scale;
      // Bars are at least 2 px wide; longer ones within 1 px of their duration on the axis.
      expect(Math.abs(bar.width - Math.max(2, expected))).toBeLessThanOrEqual(1);
    }
    const search = drawn.filter((bar) => bar.tool === 'web_search');
    expect(search.map((bar) => bar.outcome)).toEqual(['rate_limited', 'ok']);
    const [first, second] = search as [DrawnAttempt, DrawnAttempt];
    const gapMs = (second.x - (first.x + first.width)) / scale;
    expect(gapMs).toBeGreaterThan(950);
    expect(gapMs).toBeLessThan(1_100);
    await expect(
      page.$eval('#wf-chart g[data-tool="web_search"] .wait', (wait) =>
        wait.getAttribute('data-kind'),
      ),
    ).resolves.toBe('Retry-After');

    // A bar's details: the error, the arguments, what the model read.
    await page.click('#wf-chart g[data-tool="web_search"] rect[data-attempt="1"]');
    const detail = await page.textContent('#wf-detail');
    expect(detail).toContain('web_search attempt 1: rate_limited');
    expect(detail).toContain('"query":"circuit breaker Retry-After"');
    await page.screenshot({
      path: join(SCREENSHOTS, 'waterfall-web-research-1440.png'),
      fullPage: true,
    });
  });

  it('shows the outage: the breaker opening, fail-fast calls, the wait, half-open and closed', async () => {
    await openRun(runs['outage'] as string);
    const markers = await page.$$eval('#wf-chart g.marker.breaker', (groups) =>
      groups.map((group) => group.getAttribute('data-to')),
    );
    expect(markers).toEqual(['open', 'half_open', 'closed']);
    const drawn = await attempts();
    expect(drawn.filter((bar) => bar.outcome === 'circuit_open')).toHaveLength(2);
    expect(drawn.filter((bar) => bar.tool === 'wait')).toHaveLength(2);
    // Failures are coloured by type.
    const colours = await page.$$eval('#wf-chart rect.attempt', (rects) =>
      Object.fromEntries(
        rects.map((rect) => [rect.getAttribute('data-outcome'), rect.getAttribute('fill')]),
      ),
    );
    expect(new Set(Object.values(colours)).size).toBe(Object.keys(colours).length);

    await page.click('#wf-chart rect[data-outcome="circuit_open"]');
    await expect(page.textContent('#wf-detail')).resolves.toMatch(/the model read.*retryAfterMs/s);

    // The tool's health: the breaker strip turned open, and it is closed now.
    const card = page.locator('.health-card[data-tool="news_search"]');
    await card.waitFor();
    await expect(card.locator('.badge').textContent()).resolves.toBe('closed');
    const strip = await card
      .locator('.breaker-strip rect')
      .evaluateAll((rects) =>
        rects.map((rect) => [rect.getAttribute('data-state'), Number(rect.getAttribute('width'))]),
      );
    expect(strip.map(([state]) => state)).toEqual(['closed', 'open', 'half_open', 'closed']);
    expect(strip.every(([, width]) => (width as number) > 0)).toBe(true);
    await expect(card.textContent()).resolves.toMatch(/calls6.*circuit_open 2/);

    // The summary table has the run with its breaker opening.
    const row = await page
      .locator('#summary tbody tr', { hasText: (runs['outage'] as string).slice(0, 8) })
      .locator('td')
      .allTextContents();
    expect(row.slice(1, 7)).toEqual(['outage', 'completed', '9', '13', '4', '1']);
    await page.screenshot({ path: join(SCREENSHOTS, 'waterfall-outage-1440.png'), fullPage: true });
    await page
      .locator('.trace-panel')
      .screenshot({ path: join(SCREENSHOTS, 'outage-run-panel.png') });
    await page.locator('#health').screenshot({ path: join(SCREENSHOTS, 'tool-health.png') });
  });

  it('lists runs with when, how long, the first words and the scenario, filtered by status', async () => {
    const item = page.locator(`#runs li[data-id="${runs['outage'] as string}"]`);
    await expect(item.locator('.task').textContent()).resolves.toBe(
      'Find the latest news about the payments…',
    );
    await expect(item.locator('.when').textContent()).resolves.toMatch(
      /^\d\d:\d\d:\d\d · \d+\.\d s · /,
    );
    await page.selectOption('#status-filter', 'stopped');
    await expect(page.locator('#runs li').count()).resolves.toBe(1);
    // The summary table follows the filter (asked for again with ?status=).
    await page.waitForFunction(`document.querySelectorAll('#summary tbody tr').length === 1`);
    await expect(page.textContent('#summary tbody')).resolves.toContain('kube-deploy-forbidden');
    await page.screenshot({ path: join(SCREENSHOTS, 'runs-filtered-stopped.png') });
    await page.selectOption('#status-filter', '');
    await expect(page.locator('#runs li').count()).resolves.toBe(3);
  });

  it('fits a 390 px phone: no page scroll sideways, the waterfall scrolls in its own box', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openRun(runs['outage'] as string);
    // Page scripts as strings: the specs compile without the DOM's types.
    const widths = (await page.evaluate(`({
      page: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
      box: document.querySelector('.wf-box').clientWidth,
    })`)) as { page: number; viewport: number; box: number };
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);
    expect(widths.box).toBeLessThan(390);
    await page.screenshot({ path: join(SCREENSHOTS, 'waterfall-outage-390.png'), fullPage: true });
    await page
      .locator('.trace-panel')
      .screenshot({ path: join(SCREENSHOTS, 'outage-run-panel-390.png') });
    await page.setViewportSize({ width: 1440, height: 1000 });
  });

  it('has no serious or critical accessibility violations (axe-core) and no console errors', async () => {
    await openRun(runs['outage'] as string);
    await page.addScriptTag({ content: AXE });
    const violations = (await page.evaluate('axe.run().then((result) => result.violations)')) as {
      id: string;
      impact: string;
      nodes: { target: string[] }[];
    }[];
    const serious = violations
      .filter((violation) => ['serious', 'critical'].includes(violation.impact))
      .map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(' ')}`,
      );
    expect(serious).toEqual([]);
    expect(problems).toEqual([]);
  });
});
