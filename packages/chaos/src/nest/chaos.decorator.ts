import { SetMetadata } from '@nestjs/common';
import type { ChaosRule } from '../selection/chaos-rule.js';
import { CHAOS_RULES_METADATA } from './chaos.constants.js';

/**
 * Adds chaos rules for this one tool: `ChaosModule` registers them at startup with `tools`
 * set to the tool's name (any `tools` given is replaced). A rule without a `name` is named
 * `<tool>#<n>`. The rules inject nothing until chaos is enabled (`ChaosModule.forRoot({
 * enabled: true })` or `ChaosService.enable()`).
 *
 * @example
 * ```ts
 * @Tool({ name: 'search', description: 'Searches the catalogue.', idempotent: true })
 * @Chaos({ name: 'search-429', fault: rateLimit({ retryAfterSeconds: 2 }), everyNth: 5 })
 * search(@ToolArgs() args: SearchArgs) {}
 * ```
 * @publicApi
 */
export const Chaos = (...rules: ChaosRule[]): MethodDecorator =>
  SetMetadata(CHAOS_RULES_METADATA, rules);
