import { CLOCK_RULE, anyObject, bool, integer, listOf, objectOf } from '@toolshield/core/internal';
import type { ChaosControllerOptions } from '../runtime/chaos-controller-options.js';
import { CHAOS_RULE_RULE } from './chaos-rule.rule.js';

/** How `ChaosController` options are checked. @internal */
export const CHAOS_CONTROLLER_OPTIONS_RULE = objectOf<ChaosControllerOptions>({
  rules: listOf(CHAOS_RULE_RULE),
  seed: integer(),
  clock: CLOCK_RULE,
  enabled: bool(),
  allowInProduction: bool(),
  env: anyObject('an object of environment variables'),
});

/** How `ChaosModule.forRoot()` / `forRootAsync()` options are checked (with `isGlobal`). @internal */
export const CHAOS_MODULE_OPTIONS_RULE = objectOf<ChaosControllerOptions & { isGlobal?: boolean }>({
  ...CHAOS_CONTROLLER_OPTIONS_RULE.rules,
  isGlobal: bool(),
});
