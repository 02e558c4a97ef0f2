import { Injectable } from '@nestjs/common';
import { Tool, ToolArgs, ToolCall, NotFoundError, type ToolCallContext } from '@toolshield/nest';
import { IsIn, IsOptional, IsString, Length } from 'class-validator';

/** Arguments of `get_weather`. */
export class GetWeatherArgs {
  @IsString() @Length(2, 80) city!: string;
  @IsOptional() @IsIn(['metric', 'imperial']) units?: 'metric' | 'imperial';
}

/** Deterministic stand-in for a weather API: the same city always gets the same weather. */
const OBSERVATIONS: Readonly<Record<string, { tempC: number; sky: string }>> = {
  paris: { tempC: 18, sky: 'light rain' },
  oslo: { tempC: 4, sky: 'overcast' },
  lima: { tempC: 22, sky: 'clear' },
  tokyo: { tempC: 15, sky: 'partly cloudy' },
};

/** Weather lookups for the sample agent. */
@Injectable()
export class WeatherTools {
  @Tool({
    name: 'get_weather',
    description: 'Current weather for a city: temperature and sky.',
    idempotent: true,
    annotations: { readOnlyHint: true },
  })
  getWeather(@ToolArgs() args: GetWeatherArgs, @ToolCall() call: ToolCallContext) {
    const observation = OBSERVATIONS[args.city.trim().toLowerCase()];
    if (!observation) {
      throw new NotFoundError(`No weather station for "${args.city}".`, {
        toolName: call.toolName,
      });
    }
    const temperature =
      args.units === 'imperial'
        ? `${Math.round(observation.tempC * 1.8 + 32)}°F`
        : `${observation.tempC}°C`;
    return { city: args.city, temperature, sky: observation.sky };
  }
}
