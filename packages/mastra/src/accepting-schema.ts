import type { StandardSchemaWithJSON } from '@mastra/core/schema';

/**
 * A Standard Schema that describes the arguments to the model by `jsonSchema` but accepts
 * every value: the shielded call validates them itself, inside toolshield's pipeline, so an
 * invalid call ends in an `invalid_input` failure (fields listed, the run going on) rather
 * than in Mastra's own validation error object, which the application could not tell from a
 * result.
 *
 * @internal
 */
export function acceptingSchema<T>(
  jsonSchema: StandardSchemaWithJSON['~standard']['jsonSchema'],
): StandardSchemaWithJSON<T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'toolshield',
      validate: (value: unknown) => ({ value: value as T }),
      jsonSchema,
    },
  };
}
