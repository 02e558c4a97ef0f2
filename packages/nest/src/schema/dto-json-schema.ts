import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import type { JsonObjectSchema } from '@toolshield/core';
import classValidatorJsonSchema from 'class-validator-jsonschema';

type JsonSchema = Record<string, unknown>;

const REF_PREFIX = '#/definitions/';
const EMPTY_OBJECT_SCHEMA: JsonObjectSchema = Object.freeze({ type: 'object', properties: {} });

/**
 * Derives the JSON Schema of a tool's arguments from its class-validator DTO, with nested
 * DTOs (`@ValidateNested()` + `@Type()`) inlined: models and providers handle plain nested
 * objects better than `$ref`s. A self-referencing DTO stops at the cycle with an open object.
 *
 * Build one per bootstrap: it reads class-validator's metadata once.
 *
 * @internal
 */
export class DtoJsonSchemaFactory {
  private definitions?: Record<string, JsonSchema>;

  /** The schema for `dto`, or an open object schema for tools without a DTO. */
  create(dto: unknown): JsonObjectSchema {
    if (typeof dto !== 'function' || dto === Object) return { ...EMPTY_OBJECT_SCHEMA };
    const root = this.allDefinitions()[dto.name];
    if (!root) return { ...EMPTY_OBJECT_SCHEMA };
    return this.inline(root, new Set([dto.name])) as JsonObjectSchema;
  }

  private allDefinitions(): Record<string, JsonSchema> {
    this.definitions ??= classValidatorJsonSchema.validationMetadatasToSchemas({
      classTransformerMetadataStorage: defaultMetadataStorage as never,
      refPointerPrefix: REF_PREFIX,
    }) as Record<string, JsonSchema>;
    return this.definitions;
  }

  private inline(node: unknown, visiting: ReadonlySet<string>): unknown {
    if (Array.isArray(node)) return node.map((item) => this.inline(item, visiting));
    if (typeof node !== 'object' || node === null) return node;
    const ref = (node as JsonSchema).$ref;
    if (typeof ref === 'string' && ref.startsWith(REF_PREFIX)) {
      const name = ref.slice(REF_PREFIX.length);
      const target = this.allDefinitions()[name];
      if (!target || visiting.has(name)) return { type: 'object' };
      return this.inline(target, new Set([...visiting, name]));
    }
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, this.inline(value, visiting)]),
    );
  }
}
