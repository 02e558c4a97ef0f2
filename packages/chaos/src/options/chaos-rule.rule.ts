import {
  either,
  finiteNumber,
  integer,
  listOf,
  numberIn,
  objectOf,
  required,
  text,
  validDate,
  withMethods,
} from '@toolshield/core/internal';
import type { ChaosRule } from '../selection/chaos-rule.js';

const CLOCK_TIME = either(finiteNumber(), validDate());

/** How a {@link ChaosRule} is checked (in `ChaosController` and on `@Chaos()`). @internal */
export const CHAOS_RULE_RULE = objectOf<ChaosRule>({
  name: text(true),
  tools: either(text(true), listOf(text(true))),
  fault: required(withMethods('a ChaosFault', ['inject'])),
  probability: numberIn(0, 1),
  everyNth: integer(1),
  firstN: integer(0),
  activeFrom: CLOCK_TIME,
  activeUntil: CLOCK_TIME,
  maxInjections: integer(0),
  seed: integer(),
});
