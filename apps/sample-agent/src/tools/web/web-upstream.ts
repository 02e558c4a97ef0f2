import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { startFixtureUpstream, type FixtureUpstream } from '../../upstream/fixture-upstream.js';

/**
 * The web the `web_search`, `fetch_page` and `pay_invoice` tools reach: the fixture upstream,
 * started on 127.0.0.1 on first use and closed with the application; or, with `UPSTREAM_URL`,
 * one every instance shares (`node dist/upstream/main.js`), which the scenarios' plans leave
 * alone. The scenarios plan it per run: the tools send their run's id, and each run meets its
 * own plan.
 */
@Injectable()
export class WebUpstream implements OnApplicationShutdown {
  private started?: Promise<FixtureUpstream>;

  /** The running fixture upstream (started on the first call). */
  fixture(): Promise<FixtureUpstream> {
    this.started ??= startFixtureUpstream();
    return this.started;
  }

  /** The root URL the tools call. */
  async url(): Promise<string> {
    return process.env['UPSTREAM_URL'] || (await this.fixture()).url;
  }

  /** Drops the plans of `runId` (its run ended). */
  async forgetRun(runId: string): Promise<void> {
    if (this.started) (await this.started).forgetRun(runId);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.started) await (await this.started).close();
  }
}
