import { Controller, Get } from '@nestjs/common';
import { SCENARIOS } from '../scenarios/index.js';

/** A scenario as `GET /api/scenarios` lists it. */
export interface ScenarioDescription {
  readonly name: string;
  readonly title: string;
  readonly task: string;
  readonly recoverable: boolean;
}

/** The named scenarios a run can be started with. */
@Controller('api/scenarios')
export class ScenariosController {
  @Get()
  list(): ScenarioDescription[] {
    return [...SCENARIOS.values()].map(({ name, title, task, recoverable }) => ({
      name,
      title,
      task,
      recoverable,
    }));
  }
}
