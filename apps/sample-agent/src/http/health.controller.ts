import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService } from '@nestjs/terminus';
import { ToolShieldHealthIndicator } from '@toolshield/nest/health';

/**
 * Readiness (`/api/health`): 200 while the service can serve runs, also while some tools'
 * breakers are open (listed, with `degraded: true`); none of this service's tools is critical.
 * Liveness (`/api/health/live`): 200 while the process answers.
 */
@Controller('api/health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly tools: ToolShieldHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.tools.isReady('tools')]);
  }

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([() => this.tools.isAlive('tools')]);
  }
}
