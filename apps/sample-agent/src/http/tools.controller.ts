import { Controller, Get } from '@nestjs/common';
import type { CircuitState } from '@toolshield/core';
import { ToolCircuitBreakers, ToolRegistry } from '@toolshield/nest';

/** A tool as `GET /api/tools` lists it. */
export interface ToolDescription {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: unknown;
  /** `closed` until the tool's breaker has seen a call. */
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
    const states = new Map(this.breakers.states().map((breaker) => [breaker.tool, breaker.state]));
    return this.registry.definitions().map((definition) => ({
      name: definition.name,
      description: definition.description,
      inputSchema: definition.inputSchema,
      breaker: states.get(definition.name) ?? 'closed',
    }));
  }
}
