import { SetMetadata } from '@nestjs/common';
import { TOOL_METADATA } from '../toolshield.constants.js';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';

/**
 * Marks a provider method as a tool the model can call. The method receives its arguments
 * through `@ToolArgs()` and the call through `@ToolCall()`; it runs behind guards,
 * interceptors, pipes and filters like a controller route, with the context type `'tool'`.
 *
 * @example
 * ```ts
 * @Injectable()
 * export class WeatherTools {
 *   @Tool({ name: 'get_weather', description: 'Current weather for a city.', idempotent: true })
 *   async getWeather(@ToolArgs() args: GetWeatherArgs, @ToolCall() call: ToolCallContext) {
 *     return this.weather.current(args.city, { signal: call.signal });
 *   }
 * }
 * ```
 * @publicApi
 */
export const Tool = (options: ToolOptions): MethodDecorator => SetMetadata(TOOL_METADATA, options);
