import { afterAll, afterEach, beforeAll, expect, it, jest } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { InMemoryRunStore } from '../../src/runs/in-memory-run-store.js';
import { browserDescribe, launchBrowser } from '../fixtures/browser.js';
import { startTestServer } from '../fixtures/test-server.js';

jest.setTimeout(120_000);

/** A page of another site that tries to start a run on the service at `api`. */
function attackPage(api: string): string {
  return `<!doctype html><html><body>
<form id="form" method="POST" action="${api}/api/runs"><input name="task" value="Deploy evil:latest"></form>
<script>
  window.results = {};
  (async () => {
    await fetch('${api}/api/runs', { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"task":"x"}' })
      .then((response) => (results.noCors = response.type), () => (results.noCors = 'error'));
    await fetch('${api}/api/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"task":"x"}' })
      .then((response) => (results.json = response.status), () => (results.json = 'blocked'));
    results.done = true;
  })();
</script></body></html>`;
}

const describeWithBrowser = browserDescribe();

describeWithBrowser('another site in Chromium cannot start a run', () => {
  let service: Awaited<ReturnType<typeof startTestServer>>;
  let other: Server;
  let otherUrl: string;
  let chromium: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    service = await startTestServer();
    other = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(service.baseUrl));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    // evil.test resolves to 127.0.0.1 in this browser: a DNS rebinding page, without DNS.
    chromium = await launchBrowser(undefined, ['--host-resolver-rules=MAP evil.test 127.0.0.1']);
    page = chromium.page;
  });
  afterAll(async () => {
    await chromium?.close();
    await service?.close();
    await new Promise((resolve) => other?.close(resolve));
  });

  it('refuses the page’s form post and no-cors fetch (403); the JSON fetch never leaves the preflight', async () => {
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/runs') && response.request().method() === 'POST')
        statuses.push(response.status());
    });
    await page.goto(otherUrl);
    await page.waitForFunction('window.results.done === true');
    expect(await page.evaluate('window.results')).toEqual({
      noCors: 'opaque',
      json: 'blocked',
      done: true,
    });
    const [navigation] = await Promise.all([
      page.waitForNavigation(),
      page.evaluate('document.getElementById("form").submit()'),
    ]);
    expect(navigation?.status()).toBe(403);
    expect(statuses).toEqual([403, 403]);
    expect((await service.request('GET', '/api/runs')).body).toEqual([]);
  });

  it('refuses a DNS rebinding page, served under its own name from the service itself', async () => {
    const port = new URL(service.baseUrl).port;
    await page.goto(`http://evil.test:${port}/`);
    const status = await page.evaluate(() =>
      fetch('/api/runs', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"task":"x"}',
      }).then((response) => response.status),
    );
    expect(status).toBe(403);
    expect((await service.request('GET', '/api/runs')).body).toEqual([]);
  });
});

describeWithBrowser('the dashboard with API_TOKEN in Chromium', () => {
  let service: Awaited<ReturnType<typeof startTestServer>> | undefined;
  let chromium: Awaited<ReturnType<typeof launchBrowser>> | undefined;
  afterEach(async () => {
    await chromium?.close();
    await service?.close();
  });

  it('asks for the token once, keeps it for the tab and follows a run live', async () => {
    service = await startTestServer(new InMemoryRunStore(), { API_TOKEN: 'dashboard-token-9' });
    chromium = await launchBrowser();
    const page = chromium.page;
    const prompts: string[] = [];
    page.on('dialog', (dialog) => {
      prompts.push(dialog.message());
      void dialog.accept('dashboard-token-9');
    });
    await page.goto(service.baseUrl);
    await page.waitForSelector('#tools li');
    await page.selectOption('#scenario', 'calculator');
    await page.click('button[type=submit]');
    await page.waitForSelector('#trace li[data-type="run.finished"]');
    await expect(page.textContent('#trace-status')).resolves.toBe('completed');
    expect(prompts).toHaveLength(1);
    expect(await page.evaluate(() => sessionStorage.getItem('toolshield-api-token'))).toBe(
      'dashboard-token-9',
    );
  });
});
