import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Controller,
  Get,
  Injectable,
  ServiceUnavailableException,
  type INestApplication,
} from '@nestjs/common';
import { HealthCheck, HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { ToolShieldHealthIndicator } from '../../src/health/index.js';
import { Tool, ToolExecutor, ToolShieldModule } from '../../src/index.js';

/** Two upstreams that can be switched off: search (optional) and payments (critical). */
@Injectable()
class Upstreams {
  readonly down = new Set<string>();

  @Tool({ name: 'search', description: 'Searches the catalogue.' })
  search() {
    return this.answer('search');
  }

  @Tool({ name: 'payments', description: 'Takes a payment.', critical: true })
  payments() {
    return this.answer('payments');
  }

  private answer(name: string) {
    if (this.down.has(name)) throw new ServiceUnavailableException(`${name} is down`);
    return { ok: true };
  }
}

/** The probes of the README: liveness and readiness apart. */
@Controller('health')
class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly tools: ToolShieldHealthIndicator,
  ) {}

  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([() => this.tools.isAlive('tools')]);
  }

  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check([() => this.tools.isReady('tools')]);
  }
}

/**
 * The kubelet's probe rule: a probe is an HTTP GET that succeeds on a status from 200 to 399;
 * the pod leaves the Service's endpoints after `failureThreshold` failures in a row and comes
 * back after `successThreshold` successes.
 */
async function probeLoop(url: string, probes: number, failureThreshold = 3) {
  const statuses: number[] = [];
  let failuresInARow = 0;
  let ready = true;
  for (let probe = 0; probe < probes; probe++) {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await response.arrayBuffer();
    statuses.push(response.status);
    const ok = response.status >= 200 && response.status < 400;
    failuresInARow = ok ? 0 : failuresInARow + 1;
    if (ok) ready = true;
    else if (failuresInARow >= failureThreshold) ready = false;
  }
  return { statuses, ready };
}

describe('readiness probe against the real HTTP server', () => {
  let app: INestApplication;
  let base: string;
  let upstreams: Upstreams;
  let executor: ToolExecutor;

  /** Fails calls of `tool` until its breaker opens (default breaker: 50 % of at least 10 calls). */
  const outage = async (tool: string) => {
    upstreams.down.add(tool);
    for (let call = 0; call < 12; call++)
      await executor.execute({ id: `${tool}-${call}`, name: tool, arguments: {} });
  };

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        ToolShieldModule.forRoot({ isGlobal: true }),
        TerminusModule.forRoot({ logger: false }),
      ],
      controllers: [HealthController],
      providers: [Upstreams, ToolShieldHealthIndicator],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    upstreams = app.get(Upstreams);
    executor = app.get(ToolExecutor);
  });
  afterAll(() => app.close());

  it('stays 200 while a tool breaker is open, goes 503 when a critical tool breaker opens', async () => {
    await outage('search');
    const searchOpen = await probeLoop(`${base}/health/ready`, 10);
    expect(searchOpen).toEqual({ statuses: Array(10).fill(200), ready: true });
    const body = (await (await fetch(`${base}/health/ready`)).json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 'ok',
      info: { tools: { status: 'up', open: ['search'], degraded: true, critical_open: [] } },
    });

    await outage('payments');
    const paymentsOpen = await probeLoop(`${base}/health/ready`, 5);
    expect(paymentsOpen).toEqual({ statuses: Array(5).fill(503), ready: false });
    const failed = (await (await fetch(`${base}/health/ready`)).json()) as Record<string, unknown>;
    expect(failed).toMatchObject({
      status: 'error',
      error: { tools: { status: 'down', critical_open: ['payments'] } },
    });

    // Liveness never follows the breakers: the kubelet does not restart the pod.
    expect(await probeLoop(`${base}/health/live`, 3)).toEqual({
      statuses: [200, 200, 200],
      ready: true,
    });
  });
});
