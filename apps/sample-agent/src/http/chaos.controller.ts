import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ChaosSettings, type ChaosState } from '../chaos/chaos-settings.service.js';

/** Switches fault injection and its rules at run time. */
@Controller('api/chaos')
export class ChaosController {
  constructor(private readonly chaos: ChaosSettings) {}

  @Get()
  get(): ChaosState {
    return this.chaos.state();
  }

  /**
   * `{ "enabled"?: boolean, "rules"?: ChaosRuleSpec[] }`; what is left out stays as it is. The
   * body GET returned is accepted as it is (its counters and seed are read-only).
   */
  @Put()
  put(@Body() body: unknown): ChaosState {
    return this.chaos.update(body);
  }

  /** Restores the default rules, seed and switch, with the counters at zero. */
  @Post('reset')
  @HttpCode(200)
  reset(): ChaosState {
    return this.chaos.reset();
  }
}
