import { ConsoleLogger, type LoggerService, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { fileURLToPath } from 'node:url';
import { ModelSelector, type ModelEnvironment } from '../agent/select-model.js';
import { AgentRunsService } from '../runs/agent-runs.service.js';
import { queueSettingsFrom, type QueueEnvironment } from '../queue/queue-settings.js';
import type { RunStore } from '../runs/run-store.js';
import { ServerModule } from '../server.module.js';
import { apiSecurityFromEnv, type ApiSecurityEnvironment } from './api-security.options.js';
import type { AppTelemetry } from '../telemetry/start-telemetry.js';
import {
  approvalTtlMs,
  paymentApprovalAbove,
  type PaymentApprovalEnvironment,
} from '../tools/payment-approval.js';
import { BadRequestFilter } from './bad-request.filter.js';
import { HttpErrorFilter } from './http-error.filter.js';

/** The dashboard's files: plain HTML, CSS and JS, served as they are. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../dashboard/', import.meta.url));

/** What the service is made of; everything but the store has a default. */
export interface CreateServerOptions {
  readonly store: RunStore;
  readonly env?: ModelEnvironment &
    ApiSecurityEnvironment &
    QueueEnvironment &
    PaymentApprovalEnvironment & { readonly CHAOS?: string };
  /**
   * Nest's logger: `false` for none, levels for Nest's console logger in JSON lines (one per
   * record; default `['log', 'warn', 'error']`, which carries the run lifecycle lines), or
   * any `LoggerService`.
   */
  readonly logger?: false | LogLevel[] | LoggerService;
  /** The started OpenTelemetry SDK (`startTelemetry(env)`); none by default. */
  readonly telemetry?: AppTelemetry;
}

function jsonLogger(logger: CreateServerOptions['logger']): false | LoggerService {
  if (logger === false || (logger !== undefined && !Array.isArray(logger))) return logger;
  return new ConsoleLogger({ json: true, logLevels: logger ?? ['log', 'warn', 'error'] });
}

/**
 * The reference service as a Nest application on Express, initialised (store migrated,
 * interrupted runs resumed) but not listening: call `listen(port, '127.0.0.1')`.
 */
export async function createServer(options: CreateServerOptions): Promise<NestExpressApplication> {
  const env = options.env ?? {};
  const queue = queueSettingsFrom(env);
  const approvalTtl = approvalTtlMs(env);
  paymentApprovalAbove(env); // a bad PAYMENT_APPROVAL_ABOVE stops the start, not a payment
  await options.store.migrate();
  const app = await NestFactory.create<NestExpressApplication>(
    ServerModule.forRoot({
      store: options.store,
      models: new ModelSelector(env),
      chaos: env.CHAOS === 'on',
      api: apiSecurityFromEnv(env),
      secrets: [env.OPENAI_API_KEY, env.API_TOKEN].filter((secret) => secret !== undefined),
      telemetry: options.telemetry,
      queue,
      approvalTtlMs: approvalTtl,
    }),
    // Closing ends open event streams too: a stream followed from another instance would
    // otherwise hold the process open after SIGTERM.
    { logger: jsonLogger(options.logger), forceCloseConnections: true },
  );
  app.useGlobalFilters(new HttpErrorFilter(), new BadRequestFilter());
  app.useStaticAssets(DASHBOARD_DIR, { index: 'index.html' });
  await app.init();
  await app.get(AgentRunsService).resumeInterrupted();
  return app;
}
