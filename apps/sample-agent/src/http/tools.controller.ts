import { Controller, Get } from '@nestjs/common';
import type { CircuitState } from '@toolshield/core/events';
import { ToolCircuitBreakers, ToolRegistry } from '@toolshield/nest';
import { breakerStateByTool } from '../telemetry/tool-breaker-states.js';

/** A tool as `GET /api/tools` lists it. */
export interface ToolDescription {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: unknown;
  /** `closed` until the tool's breaker has seen a call; the worst, when it has one per run. */
  readonly breaker: CircuitState;
}

/** The tools the agent may call, with their JSON Schemas and breaker states. */
@Controller('api/tools')
export class ToolsController {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly breakers: ToolCircuitBreakers,
  ) {}

  @Get()
  list(): ToolDescription[] {
    const states = breakerStateByTool(this.breakers.states());
    return this.registry.definitions().map((definition) => ({
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema,
      breaker: states.get(definition.name) ?? 'closed',
    }));
  }
}
