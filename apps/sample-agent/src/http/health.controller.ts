import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { ToolShieldHealthIndicator } from '@toolshield/nest/health';

/** Readiness: `down` (503) while a tool's breaker is open, with every breaker's state. */
@Controller('api/health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly tools: ToolShieldHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.tools.isHealthy('tools')]);
  }
}
