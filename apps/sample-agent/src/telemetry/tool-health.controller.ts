import {
  Controller,
  Get,
  Injectable,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { ToolCircuitBreakers, ToolExecutor } from '@toolshield/nest';
import type { Subscription } from 'rxjs';
import { BREAKER_HISTORY_MS, ToolHealthTracker, type ToolHealthReport } from './tool-health.js';
import { breakerStateByTool } from './tool-breaker-states.js';

/** The tracker fed with every tool event of the service. */
@Injectable()
export class ToolHealth extends ToolHealthTracker implements OnModuleInit, OnModuleDestroy {
  private subscription?: Subscription;

  constructor(private readonly executor: ToolExecutor) {
    super();
  }

  onModuleInit(): void {
    this.subscription = this.executor.events$.subscribe((event) => this.record(event));
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}

/** What `GET /api/tool-health` answers. */
export interface ToolHealthResponse {
  readonly now: number;
  readonly historyMs: number;
  readonly tools: readonly (ToolHealthReport & { readonly breaker: string })[];
}

/** `GET /api/tool-health`: each called tool's health and its breaker's recent history. */
@Controller('api/tool-health')
export class ToolHealthController {
  constructor(
    private readonly health: ToolHealth,
    private readonly breakers: ToolCircuitBreakers,
  ) {}

  @Get()
  read(): ToolHealthResponse {
    const now = Date.now();
    const states = breakerStateByTool(this.breakers.states());
    return {
      now,
      historyMs: BREAKER_HISTORY_MS,
      tools: this.health
        .report(now)
        .map((report) => ({ ...report, breaker: states.get(report.tool) ?? 'closed' })),
    };
  }
}
