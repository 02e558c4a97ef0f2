import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { startFixtureUpstream, type FixtureUpstream } from '../../upstream/fixture-upstream.js';

/**
 * The web the `web_search` and `fetch_page` tools reach: the fixture upstream, started on
 * 127.0.0.1 on first use and closed with the application.
 */
@Injectable()
export class WebUpstream implements OnApplicationShutdown {
  private started?: Promise<FixtureUpstream>;

  /** The running fixture upstream (started on the first call). */
  fixture(): Promise<FixtureUpstream> {
    this.started ??= startFixtureUpstream();
    return this.started;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.started) await (await this.started).close();
  }
}
