import { afterAll, beforeAll, expect, it, jest } from '@jest/globals';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { InMemoryRunStore } from '../../src/runs/in-memory-run-store.js';
import { startFixtureUpstream, type FixtureUpstream } from '../../src/upstream/fixture-upstream.js';
import { browserDescribe, launchBrowser, SCREENSHOTS } from '../fixtures/browser.js';
import { startTestServer } from '../fixtures/test-server.js';

const describeWithBrowser = browserDescribe();

jest.setTimeout(60_000);

describeWithBrowser('approving and denying a payment on the dashboard (Chromium)', () => {
  let upstream: FixtureUpstream;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  const upstreamUrl = process.env['UPSTREAM_URL'];

  beforeAll(async () => {
    upstream = await startFixtureUpstream();
    process.env['UPSTREAM_URL'] = upstream.url;
    server = await startTestServer(new InMemoryRunStore());
    browser = await launchBrowser();
    page = browser.page;
    await page.goto(server.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await upstream?.close();
    if (upstreamUrl === undefined) delete process.env['UPSTREAM_URL'];
    else process.env['UPSTREAM_URL'] = upstreamUrl;
  });

  /** Starts the payment that needs approval from the form; resolves with the run's id once it waits. */
  async function startWaitingPayment(): Promise<string> {
    await page.selectOption('#scenario', 'pay-large-invoice');
    const [response] = await Promise.all([
      page.waitForResponse(
        (candidate) =>
          candidate.url().endsWith('/api/runs') && candidate.request().method() === 'POST',
      ),
      page.click('button[type=submit]'),
    ]);
    const { id } = (await response.json()) as { id: string };
    await page.waitForSelector('#trace li[data-type="run.awaiting_approval"]');
    await page.waitForSelector(`#approvals li[data-run="${id}"]`);
    return id;
  }

  it('shows the waiting call with its arguments; Approve makes the payment and the run completes', async () => {
    const id = await startWaitingPayment();
    await expect(page.textContent('#trace-status')).resolves.toBe('awaiting_approval');
    const item = page.locator(`#approvals li[data-run="${id}"]`);
    await expect(item.locator('code').textContent()).resolves.toBe('pay_invoice');
    const args = JSON.parse((await item.locator('pre.args').textContent()) ?? '{}');
    expect(args).toEqual({ invoice: 'INV-2048', amount: 4800, currency: 'EUR' });
    await page.screenshot({ path: join(SCREENSHOTS, 'approval-pending.png'), fullPage: true });

    await item.locator('button.approve').click();
    await page.waitForSelector('#trace li[data-type="run.finished"]');
    await expect(page.textContent('#trace-status')).resolves.toBe('completed');
    await expect(page.textContent('#trace')).resolves.toContain('pay_invoice approved');
    await expect(page.textContent('#final')).resolves.toMatch(
      /^Final answer: Paid INV-2048 \(pay_/,
    );
    await page.waitForSelector(`#approvals li[data-run="${id}"]`, { state: 'detached' });
    expect(upstream.payments.filter((p) => p.idempotencyKey?.startsWith(`${id}:`))).toHaveLength(1);
  });

  it('Deny with a reason: the model reads it, says so and stops; nothing is paid', async () => {
    const id = await startWaitingPayment();
    const item = page.locator(`#approvals li[data-run="${id}"]`);
    await item.locator('input.reason').fill('Not this month');
    await item.locator('button.deny').click();
    await page.waitForSelector('#trace li[data-type="run.finished"]');
    await expect(page.textContent('#trace-status')).resolves.toBe('stopped');
    await expect(page.textContent('#trace')).resolves.toContain(
      'the model reads (pay_invoice):{"error":"A person declined: Not this month.',
    );
    await expect(page.textContent('#final')).resolves.toContain(
      'A person declined: Not this month.',
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'approval-denied.png'), fullPage: true });
    expect(upstream.payments.filter((p) => p.idempotencyKey?.startsWith(`${id}:`))).toHaveLength(0);
  });
});
