import { Module, type DynamicModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { ChaosModule } from '@toolshield/chaos';
import { ToolShieldMcpModule } from '@toolshield/mcp';
import { ToolShieldHealthIndicator } from '@toolshield/nest/health';
import { MODEL_SELECTOR, type ModelSelector } from './agent/select-model.js';
import { AppModule } from './app.module.js';
import { ChaosSettings } from './chaos/chaos-settings.service.js';
import { DEFAULT_CHAOS_SEED } from './chaos/default-chaos-rules.js';
import { ApiSecurityModule } from './http/api-security.module.js';
import { ApprovalsController } from './http/approvals.controller.js';
import { apiSecurityFromEnv, type ApiSecurityOptions } from './http/api-security.options.js';
import { ChaosController } from './http/chaos.controller.js';
import { HealthController } from './http/health.controller.js';
import { RunSummariesController } from './http/run-summaries.controller.js';
import { queueProviders } from './queue/queue-providers.js';
import type { QueueSettings } from './queue/queue-settings.js';
import { RunsController } from './http/runs.controller.js';
import { ScenariosController } from './http/scenarios.controller.js';
import { ToolsController } from './http/tools.controller.js';
import { AgentRunsService } from './runs/agent-runs.service.js';
import { ApprovalSweeper } from './runs/approval-sweeper.js';
import { IdempotentRunStarter } from './runs/idempotent-run-starter.js';
import { RunEventHub } from './runs/run-event-hub.js';
import { LOG_SECRETS, RunLifecycleLog } from './runs/run-lifecycle-log.js';
import { RUN_STORE, type RunStore } from './runs/run-store.js';
import { AppTelemetryModule } from './telemetry/app-telemetry.module.js';
import { DEFAULT_APPROVAL_TTL_MS } from './tools/payment-approval.js';
import type { AppTelemetry } from './telemetry/start-telemetry.js';

/** What the service runs on. */
export interface ServerModuleOptions {
  /** Where runs, events and conversations are kept (migrated before use). */
  readonly store: RunStore;
  /** The model of every run. */
  readonly models: ModelSelector;
  /** Chaos on from the start (`CHAOS=on`); switch it at run time with `PUT /api/chaos`. */
  readonly chaos?: boolean;
  /** Who may use the API and MCP (default: this machine's loopback names, no token). */
  readonly api?: ApiSecurityOptions;
  /** Values the logs mask wherever they appear (the model's API key, the API token). */
  readonly secrets?: readonly string[];
  /** The OpenTelemetry SDK `startTelemetry()` started: `/metrics`, OTLP (default: none). */
  readonly telemetry?: AppTelemetry;
  /** Runs as jobs on a Redis queue, shared by several instances; absent: runs stay in process. */
  readonly queue?: QueueSettings;
  /** How long a call waits for a person's approval before it expires (default 24 h). */
  readonly approvalTtlMs?: number;
}

/**
 * The reference service: the agent's tools (`AppModule`), chaos, health, the HTTP API over
 * background agent runs, and the same tools served over MCP (Streamable HTTP) at `/mcp`.
 */
@Module({})
export class ServerModule {
  static forRoot(options: ServerModuleOptions): DynamicModule {
    return {
      module: ServerModule,
      imports: [
        AppModule.forRoot({
          approvals: {
            store: options.store.approvals,
            ttlMs: options.approvalTtlMs ?? DEFAULT_APPROVAL_TTL_MS,
          },
        }),
        AppTelemetryModule.forRoot(options.telemetry),
        TerminusModule,
        ApiSecurityModule.forRoot(options.api ?? apiSecurityFromEnv({})),
        ChaosModule.forRoot({ enabled: options.chaos ?? false, seed: DEFAULT_CHAOS_SEED }),
        ToolShieldMcpModule.forRoot({
          path: '/mcp',
          serverInfo: { name: 'toolshield-sample-agent', version: '0.0.0' },
          instructions:
            "The sample agent's tools, behind toolshield: a failure comes back as an isError result whose text says what to do next.",
        }),
      ],
      controllers: [
        RunsController,
        ScenariosController,
        ToolsController,
        HealthController,
        ChaosController,
        RunSummariesController,
        ApprovalsController,
      ],
      providers: [
        { provide: RUN_STORE, useValue: options.store },
        { provide: MODEL_SELECTOR, useValue: options.models },
        RunEventHub,
        AgentRunsService,
        ApprovalSweeper,
        IdempotentRunStarter,
        RunLifecycleLog,
        { provide: LOG_SECRETS, useValue: options.secrets ?? [] },
        ChaosSettings,
        ToolShieldHealthIndicator,
        ...queueProviders(options.queue),
      ],
    };
  }
}
