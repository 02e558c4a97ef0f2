import type { JsonObjectSchema } from './tool-definition.js';

type SchemaNode = Readonly<Record<string, unknown>>;

/**
 * Keywords strict Structured Outputs refuses (as the `openai` SDK's own strict transform
 * does). Dropping one only loosens the schema: the tool's validation still enforces it and
 * tells the model what was wrong.
 */
const UNSUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  'allOf',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'minContains',
  'maxContains',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'patternProperties',
  'propertyNames',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'prefixItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentEncoding',
  'contentMediaType',
  'contentSchema',
]);

const SCALAR_TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * The schema in the form OpenAI's strict mode (`strict: true`) requires: at every object level
 * all properties are listed in `required` and `additionalProperties` is `false`; a property
 * that was optional becomes nullable instead (`type: ['string', 'null']` for scalars, an
 * `anyOf` with `{ type: 'null' }` otherwise), so the model sends `null` where it would have
 * left the property out; `oneOf` becomes `anyOf`; an `enum` without a `type` gets the type its
 * values share; keywords strict mode refuses are dropped. The input is not modified.
 *
 * A free-form object (one without `properties`) cannot be expressed in strict mode: it is
 * closed too, so keep such a tool on the non-strict export.
 *
 * @example
 * toOpenAIStrictSchema({ type: 'object', properties: { units: { type: 'string' } } });
 * // { type: 'object', properties: { units: { type: ['string', 'null'] } },
 * //   required: ['units'], additionalProperties: false }
 *
 * @publicApi
 */
export function toOpenAIStrictSchema(schema: JsonObjectSchema): JsonObjectSchema {
  return { ...strictNode(schema), type: 'object' };
}

function strictNode(node: SchemaNode): SchemaNode {
  const out: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(node)) {
    if (UNSUPPORTED_KEYWORDS.has(keyword)) continue;
    if (keyword === 'oneOf' || keyword === 'anyOf') {
      out.anyOf = [...asArray(out.anyOf), ...asArray(value).map(strictChild)];
    } else if (keyword === 'items' && isNode(value)) {
      out.items = strictNode(value);
    } else if (keyword !== 'properties' && keyword !== 'required') {
      out[keyword] = value;
    }
  }
  if (out.type === undefined && Array.isArray(node.enum)) {
    const type = sharedScalarType(node.enum);
    if (type !== undefined) out.type = type;
  }
  if (isObjectNode(node)) closeObject(node, out);
  return out;
}

function closeObject(node: SchemaNode, out: Record<string, unknown>): void {
  const properties = isNode(node.properties) ? node.properties : undefined;
  const required = new Set(asArray(node.required));
  if (properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => {
        const strict = strictChild(child);
        return [name, required.has(name) ? strict : nullable(strict)];
      }),
    );
    out.required = Object.keys(properties);
  }
  out.additionalProperties = false;
}

function nullable(node: unknown): unknown {
  if (!isNode(node)) return node;
  const { type } = node;
  const withNullEnum = Array.isArray(node.enum) ? { enum: [...node.enum, null] } : {};
  if (SCALAR_TYPES.has(type)) return { ...node, type: [type, 'null'], ...withNullEnum };
  if (Array.isArray(type) && type.every((member) => SCALAR_TYPES.has(member) || member === 'null'))
    return type.includes('null') ? node : { ...node, type: [...type, 'null'], ...withNullEnum };
  if (Array.isArray(node.anyOf) && Object.keys(node).length === 1)
    return { anyOf: [...node.anyOf, { type: 'null' }] };
  return { anyOf: [node, { type: 'null' }] };
}

function strictChild(child: unknown): unknown {
  return isNode(child) ? strictNode(child) : child;
}

function sharedScalarType(values: readonly unknown[]): string | undefined {
  const types = new Set(
    values.map((value) =>
      typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value,
    ),
  );
  if (types.has('number') && types.has('integer')) types.delete('integer');
  const [type] = types;
  return types.size === 1 && SCALAR_TYPES.has(type) ? type : undefined;
}

function isObjectNode(node: SchemaNode): boolean {
  return node.type === 'object' || isNode(node.properties);
}

function isNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
