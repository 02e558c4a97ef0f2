import { describe, expect, it } from '@jest/globals';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { toOpenAIFunctionTool, toOpenAIStrictFunctionTool } from './openai.js';
import { toOpenAIStrictSchema } from './openai-strict-schema.js';
import type { JsonObjectSchema, ToolDefinition } from './tool-definition.js';

const coordinates = {
  type: 'object',
  properties: { lat: { type: 'integer' }, lon: { type: 'integer' } },
  required: ['lat', 'lon'],
  additionalProperties: false,
};

/** What class-validator-jsonschema derives for a DTO with optional fields, nested DTOs and arrays. */
const weatherArgs: JsonObjectSchema = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 2, maxLength: 80 },
    units: { enum: ['metric', 'imperial'] },
    near: coordinates,
    alternatives: { type: 'array', maxItems: 3, items: coordinates },
    tags: { type: 'array', uniqueItems: true, items: { type: 'string' } },
    day: { oneOf: [{ type: 'string', format: 'date' }, { type: 'integer' }] },
  },
  required: ['city'],
  additionalProperties: false,
};

describe('toOpenAIStrictSchema', () => {
  it('requires every property, makes the optional ones nullable and closes every object', () => {
    expect(toOpenAIStrictSchema(weatherArgs)).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', minLength: 2, maxLength: 80 },
        units: { type: ['string', 'null'], enum: ['metric', 'imperial', null] },
        near: { anyOf: [coordinates, { type: 'null' }] },
        alternatives: {
          anyOf: [{ type: 'array', maxItems: 3, items: coordinates }, { type: 'null' }],
        },
        tags: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
        day: { anyOf: [{ type: 'string', format: 'date' }, { type: 'integer' }, { type: 'null' }] },
      },
      required: ['city', 'units', 'near', 'alternatives', 'tags', 'day'],
      additionalProperties: false,
    });
  });

  it("is what the openai SDK's own strict transform accepts and leaves as it is", () => {
    expect(() => toStrictJsonSchema(weatherArgs as never)).toThrow(/optional/);
    const strict = toOpenAIStrictSchema(weatherArgs);
    expect(toStrictJsonSchema(structuredClone(strict) as never)).toEqual(strict);
  });

  it('closes nested objects that were open, and leaves its input alone', () => {
    const open: JsonObjectSchema = {
      type: 'object',
      properties: { filter: { type: 'object', properties: { q: { type: 'string' } } } },
    };
    const before = structuredClone(open);
    expect(toOpenAIStrictSchema(open).properties?.filter).toEqual({
      anyOf: [
        {
          type: 'object',
          properties: { q: { type: ['string', 'null'] } },
          required: ['q'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    });
    expect(open).toEqual(before);
  });

  it('is exported as a strict function tool next to the plain one', () => {
    const definition: ToolDefinition = {
      name: 'get_weather',
      description: 'Current weather for a city.',
      inputSchema: weatherArgs,
    };
    expect(toOpenAIStrictFunctionTool(definition)).toEqual({
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather for a city.',
        parameters: toOpenAIStrictSchema(weatherArgs),
        strict: true,
      },
    });
    expect(toOpenAIFunctionTool(definition).function).not.toHaveProperty('strict');
  });
});
