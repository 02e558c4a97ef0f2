import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { browserDescribe, launchBrowser, SCREENSHOTS } from '../fixtures/browser.js';
import { startTestServer } from '../fixtures/test-server.js';

const describeWithBrowser = browserDescribe();

jest.setTimeout(120_000);

/** Page script: records when the first trace line of each event type appears (page clock). */
const RECORD_LINE_TIMES = `
  window.lineTimes = {};
  new MutationObserver((changes) => {
    for (const change of changes)
      for (const node of change.addedNodes)
        if (node.dataset?.type) window.lineTimes[node.dataset.type] ??= performance.now();
  }).observe(document.querySelector('#trace'), { childList: true });
`;

describeWithBrowser('the dashboard in a real browser (Chromium)', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(server.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Submits the form and waits until the trace of the run it started has finished. */
  async function startRunAndWait(): Promise<void> {
    const [response] = await Promise.all([
      page.waitForResponse(
        (candidate) =>
          candidate.url().endsWith('/api/runs') && candidate.request().method() === 'POST',
      ),
      page.click('button[type=submit]'),
    ]);
    const { id } = (await response.json()) as { id: string };
    // The previous run's trace stays on screen until the page follows the new one.
    await page.locator('#trace-title', { hasText: id.slice(0, 8) }).waitFor();
    await page.waitForSelector('#trace li[data-type="run.finished"]');
  }

  it('starts a run from the form and shows its trace live, retries and final answer included', async () => {
    await page.selectOption('#scenario', 'web-research');
    await expect(page.inputValue('#task')).resolves.toContain('circuit breaker Retry-After');
    // When each trace line appears, by the page's own clock.
    await page.evaluate(RECORD_LINE_TIMES);
    await startRunAndWait();

    // The 429's Retry-After is a second: the retry was on screen well before the end.
    const seen = (await page.evaluate('window.lineTimes')) as Record<string, number>;
    expect((seen['run.finished'] ?? 0) - (seen['retry.scheduled'] ?? Infinity)).toBeGreaterThan(
      500,
    );
    await expect(page.textContent('#trace-status')).resolves.toBe('completed');
    const trace = await page.textContent('#trace');
    expect(trace).toContain('↻ web_search: retry, attempt 2 in 1000 ms (rate_limited)');
    await expect(page.textContent('#final')).resolves.toMatch(/^Final answer: Found 3 results/);
    await page.waitForSelector('#runs li .badge.completed');
    await page.waitForSelector('#tools li[data-tool="web_search"] .badge.closed');
    await page.screenshot({ path: join(SCREENSHOTS, 'web-research.png'), fullPage: true });
  });

  it('marks a cut page and a stale answer in the trace (stale-search)', async () => {
    await page.selectOption('#scenario', 'stale-search');
    await startRunAndWait();
    await expect(page.textContent('#trace-status')).resolves.toBe('completed');
    const trace = await page.textContent('#trace');
    expect(trace).toMatch(/✓ fetch_page \[✂ cut: [\d.]+ KB omitted\]: /);
    expect(trace).toMatch(/✓ web_search \[⚠ stale: [\d.]+ s old \(upstream_unavailable\)\]: /);
  });

  it('shows the fatal scenario stopping with its explanation and the decision prompt', async () => {
    await page.selectOption('#scenario', 'kube-deploy-forbidden');
    await startRunAndWait();
    await expect(page.textContent('#trace-status')).resolves.toBe('stopped');
    await expect(page.locator('#trace li[data-type="decision.prompt"]').count()).resolves.toBe(1);
    await expect(page.textContent('#trace')).resolves.toContain(
      'the model reads (deploy):{"error":"deployments is forbidden',
    );
    await expect(page.textContent('#final')).resolves.toContain(
      'missing RBAC permission "create deployments"',
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'kube-deploy-forbidden.png'), fullPage: true });
  });

  const chaosSaved = () =>
    page.waitForResponse(
      (response) => response.url().endsWith('/api/chaos') && response.request().method() === 'PUT',
    );

  it('switches chaos on and off', async () => {
    await Promise.all([chaosSaved(), page.check('#chaos-enabled')]);
    expect((await server.request('GET', '/api/chaos')).body.enabled).toBe(true);
    await page.selectOption('#scenario', 'slow-web');
    await startRunAndWait();
    await page.screenshot({ path: join(SCREENSHOTS, 'chaos-on.png'), fullPage: true });
    await expect(page.textContent('#trace-status')).resolves.toBe('completed');
    await Promise.all([chaosSaved(), page.uncheck('#chaos-enabled')]);
    expect((await server.request('GET', '/api/chaos')).body.enabled).toBe(false);
  });

  it('says what is wrong with a bad request, on the page', async () => {
    await page.selectOption('#scenario', '');
    await page.fill('#task', '   ');
    await page.click('button[type=submit]');
    await expect(
      page.waitForSelector('#form-error:has-text("must be a non-empty string")'),
    ).resolves.toBeTruthy();
  });
});
