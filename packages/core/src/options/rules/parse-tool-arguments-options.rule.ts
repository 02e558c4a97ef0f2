import type { ParseToolArgumentsOptions } from '../../arguments/parse-tool-arguments.js';
import { integer, objectOf } from '../option-rules.js';

/**
 * The smallest argument limit that still accepts `{}` (2 bytes), the empty arguments.
 *
 * @publicApi
 */
export const MIN_MAX_ARGUMENT_BYTES = 2;

/** How many bytes of arguments may be accepted: at least enough for `{}`. @publicApi */
export const MAX_ARGUMENT_BYTES_RULE = integer(MIN_MAX_ARGUMENT_BYTES);

/** How {@link ParseToolArgumentsOptions} are checked. @publicApi */
export const PARSE_TOOL_ARGUMENTS_OPTIONS_RULE = objectOf<ParseToolArgumentsOptions>({
  maxBytes: MAX_ARGUMENT_BYTES_RULE,
  maxDepth: integer(1),
});
