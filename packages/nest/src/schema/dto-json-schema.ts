import { defaultMetadataStorage } from 'class-transformer/cjs/storage.js';
import type { JsonObjectSchema } from '@toolshield/core';
import classValidatorJsonSchema from 'class-validator-jsonschema';

type JsonSchema = Record<string, unknown>;

const REF_PREFIX = '#/definitions/';
const EMPTY_OBJECT_SCHEMA: JsonObjectSchema = Object.freeze({ type: 'object', properties: {} });
const NOTHING_REQUIRED: readonly string[] = Object.freeze([]);

/**
 * Derives the JSON Schema (draft-07 keywords, no `$schema`) of a tool's arguments from its
 * class-validator DTO, with nested DTOs (`@ValidateNested()` + `@Type()`) inlined: models and
 * providers handle plain nested objects better than `$ref`s. Every DTO level says
 * `additionalProperties: false`, since validation refuses unknown fields at every level; a
 * property is `required` unless it is `@IsOptional()` (or `@ValidateIf()`), and
 * {@link ToolValidationPipe} enforces exactly that list. A self-referencing DTO stops at the
 * cycle with an open object.
 *
 * Build one per bootstrap (or per pipe): it reads class-validator's metadata once.
 */
export class DtoJsonSchemaFactory {
  private definitions?: Record<string, JsonSchema>;

  /** The schema for `dto`, or an open object schema for tools without a DTO. */
  create(dto: unknown): JsonObjectSchema {
    const root = this.definitionOf(dto);
    if (!root) return { ...EMPTY_OBJECT_SCHEMA };
    return this.inlineDefinition(root.schema, new Set([root.name])) as JsonObjectSchema;
  }

  /**
   * The properties the schema of `dto` lists as `required` (none for a class without rules).
   * A class unknown to the metadata read so far makes it read again (a DTO module imported
   * after the first call).
   */
  requiredProperties(dto: unknown): readonly string[] {
    let definition = this.definitionOf(dto);
    if (definition === undefined && this.definitions !== undefined) {
      this.definitions = undefined;
      definition = this.definitionOf(dto);
    }
    const required = definition?.schema.required;
    return Array.isArray(required) ? (required as string[]) : NOTHING_REQUIRED;
  }

  /** The definition of `dto`, or of the nearest base class that has validation rules. */
  private definitionOf(dto: unknown): { name: string; schema: JsonSchema } | undefined {
    for (let type = dto; isClass(type); type = Object.getPrototypeOf(type)) {
      const schema = this.allDefinitions()[type.name];
      if (schema) return { name: type.name, schema };
    }
    return undefined;
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
      return this.inlineDefinition(target, new Set([...visiting, name]));
    }
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, this.inline(value, visiting)]),
    );
  }

  /** A DTO's schema, closed: validation refuses the fields its class does not declare. */
  private inlineDefinition(definition: JsonSchema, visiting: ReadonlySet<string>): JsonSchema {
    return { ...(this.inline(definition, visiting) as JsonSchema), additionalProperties: false };
  }
}

function isClass(value: unknown): value is abstract new () => unknown {
  return typeof value === 'function' && value !== Object && value !== Function.prototype;
}
