import type { BackoffOptions } from './backoff-options.js';
import { func, milliseconds, objectOf, oneOf } from '../options/option-rules.js';

/** How {@link BackoffOptions} are checked. @publicApi */
export const BACKOFF_OPTIONS_RULE = objectOf<BackoffOptions>({
  baseMs: milliseconds(),
  capMs: milliseconds(),
  jitter: oneOf(['full', 'decorrelated', 'none']),
  random: func(),
});
