import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { fileURLToPath } from 'node:url';
import { ModelSelector, type ModelEnvironment } from '../agent/select-model.js';
import { AgentRunsService } from '../runs/agent-runs.service.js';
import { queueSettingsFrom, type QueueEnvironment } from '../queue/queue-settings.js';
import type { RunStore } from '../runs/run-store.js';
import { ServerModule } from '../server.module.js';
import { BadRequestFilter } from './bad-request.filter.js';

/** The dashboard's files: plain HTML, CSS and JS, served as they are. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../dashboard/', import.meta.url));

/** What the service is made of; everything but the store has a default. */
export interface CreateServerOptions {
  readonly store: RunStore;
  readonly env?: ModelEnvironment & QueueEnvironment & { readonly CHAOS?: string };
  readonly logger?: false | ('error' | 'warn' | 'log')[];
}

/**
 * The reference service as a Nest application on Express, initialised (store migrated,
 * interrupted runs resumed) but not listening: call `listen(port, '127.0.0.1')`.
 */
export async function createServer(options: CreateServerOptions): Promise<NestExpressApplication> {
  const env = options.env ?? {};
  const queue = queueSettingsFrom(env);
  await options.store.migrate();
  const app = await NestFactory.create<NestExpressApplication>(
    ServerModule.forRoot({
      store: options.store,
      models: new ModelSelector(env),
      chaos: env.CHAOS === 'on',
      queue,
    }),
    // Closing ends open event streams too: a stream followed from another instance would
    // otherwise hold the process open after SIGTERM.
    { logger: options.logger ?? ['error', 'warn'], forceCloseConnections: true },
  );
  app.useGlobalFilters(new BadRequestFilter());
  app.useStaticAssets(DASHBOARD_DIR, { index: 'index.html' });
  await app.init();
  await app.get(AgentRunsService).resumeInterrupted();
  return app;
}
