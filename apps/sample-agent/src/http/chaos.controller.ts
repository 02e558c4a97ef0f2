import { Body, Controller, Get, Put } from '@nestjs/common';
import { ChaosSettings, type ChaosState } from '../chaos/chaos-settings.service.js';

/** Switches fault injection and its rules at run time. */
@Controller('api/chaos')
export class ChaosController {
  constructor(private readonly chaos: ChaosSettings) {}

  @Get()
  get(): ChaosState {
    return this.chaos.state();
  }

  /** `{ "enabled"?: boolean, "rules"?: ChaosRuleSpec[] }`; what is left out stays as it is. */
  @Put()
  put(@Body() body: unknown): ChaosState {
    return this.chaos.update(body);
  }
}
