import { describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import type { ToolCallContext } from '@toolshield/core';
import { Tool, ToolArgs, ToolCall } from '../src/index.js';
import { GetWeatherArgs } from './fixtures/weather.tools.js';

@Injectable()
class Probe {
  @Tool({ description: 'Smoke test of the toolchain.' })
  probe(@ToolArgs() _args: GetWeatherArgs, @ToolCall() _call: ToolCallContext) {
    return null;
  }
}

describe('toolchain', () => {
  it('emits design:paramtypes for decorated methods (ValidationPipe depends on it)', () => {
    expect(Reflect.getMetadata('design:paramtypes', Probe.prototype, 'probe')).toEqual([
      GetWeatherArgs,
      Object,
    ]);
  });
});
