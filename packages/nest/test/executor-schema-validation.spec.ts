import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import { type ToolFailure, type ToolOutcome } from '@toolshield/core';
import { toOpenAIStrictFunctionTool } from '@toolshield/core/agent';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Tool, ToolArgs } from '../src/index.js';
import { ToolValidationPipe } from '../src/internal.js';
import { createToolApp } from './fixtures/create-app.js';

class Money {
  @IsInt() cents!: number;
}

class LineItem {
  @IsString() sku!: string;
  @ValidateNested() @Type(() => Money) price!: Money;
}

class Address {
  @IsString() street!: string;
  @IsOptional() @IsString() floor?: string;
}

class PlaceOrderArgs {
  @ValidateNested() @Type(() => Address) shipTo!: Address;
  @ValidateNested({ each: true }) @Type(() => LineItem) items!: LineItem[];
  @IsOptional() @ValidateNested() @Type(() => Address) billTo?: Address;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => LineItem) extras?: LineItem[];
  @IsOptional() @IsString() note?: string;
}

@Injectable()
class OrderTools {
  readonly received: PlaceOrderArgs[] = [];

  @Tool({ name: 'place_order', description: 'Places an order.' })
  placeOrder(@ToolArgs() args: PlaceOrderArgs) {
    this.received.push(args);
    return { street: args.shipTo.street, lines: args.items.length };
  }
}

type JsonNode = Record<string, unknown>;

const validArgs = () => ({
  shipTo: { street: '1 Main St' },
  items: [{ sku: 'A-1', price: { cents: 250 } }],
});

/** Every object level of a schema, with its path (`items[]`, `items[].price`, ...). */
function objectLevels(node: JsonNode, path = ''): [string, JsonNode][] {
  const levels: [string, JsonNode][] = node.type === 'object' ? [[path || '(root)', node]] : [];
  const properties = (node.properties ?? {}) as Record<string, JsonNode>;
  for (const [name, child] of Object.entries(properties)) {
    const at = path ? `${path}.${name}` : name;
    levels.push(...objectLevels(child, at));
    if (child.items) levels.push(...objectLevels(child.items as JsonNode, `${at}[]`));
  }
  return levels;
}

describe('the published schema is what validation enforces', () => {
  let ctx: Awaited<ReturnType<typeof createToolApp>>;
  let tools: OrderTools;
  const call = (args: unknown): Promise<ToolOutcome> =>
    ctx.executor.execute({ id: 'call_1', name: 'place_order', arguments: JSON.stringify(args) });
  const issuesOf = async (args: unknown) => {
    const outcome = (await call(args)) as ToolFailure;
    expect(outcome).toMatchObject({ success: false, errorType: 'invalid_input' });
    return outcome.issues?.map((issue) => `${issue.path}: ${issue.message}`);
  };

  beforeAll(async () => {
    ctx = await createToolApp([OrderTools]);
    tools = ctx.moduleRef.get(OrderTools);
  });
  afterAll(() => ctx.close());

  const schema = () => ctx.registry.get('place_order')?.definition.inputSchema as JsonNode;

  it('lists the required properties and closes every object level', () => {
    expect(schema().required).toEqual(['shipTo', 'items']);
    const levels = objectLevels(schema());
    expect(levels.map(([path]) => path)).toEqual([
      '(root)',
      'shipTo',
      'items[]',
      'items[].price',
      'billTo',
      'extras[]',
      'extras[].price',
    ]);
    for (const [path, level] of levels) {
      expect({ path, additionalProperties: level.additionalProperties }).toEqual({
        path,
        additionalProperties: false,
      });
    }
  });

  it('refuses a left-out required nested DTO with a field issue; the tool never runs', async () => {
    const { shipTo: _shipTo, ...withoutShipTo } = validArgs();
    expect(await issuesOf(withoutShipTo)).toEqual(['shipTo: is required']);
    const { items: _items, ...withoutItems } = validArgs();
    expect(await issuesOf(withoutItems)).toEqual(['items: is required']);
    expect(await issuesOf({ ...validArgs(), items: [{ sku: 'A-1' }] })).toEqual([
      'items.0.price: is required',
    ]);
    expect(await issuesOf({ ...validArgs(), billTo: {} })).toEqual([
      'billTo.street: must be a string',
    ]);
    const extras = [{ sku: 'B', price: { cents: 1 } }, { sku: 'C' }];
    expect(await issuesOf({ ...validArgs(), extras })).toEqual(['extras.1.price: is required']);
    expect(tools.received).toHaveLength(0);
  });

  it('enforces every property the schema lists as required, at every level', async () => {
    const args = validArgs();
    const cases: [string, unknown][] = [
      ['shipTo', { items: args.items }],
      ['items', { shipTo: args.shipTo }],
      ['shipTo.street', { ...args, shipTo: {} }],
      ['items.0.sku', { ...args, items: [{ price: { cents: 1 } }] }],
      ['items.0.price.cents', { ...args, items: [{ sku: 'A', price: {} }] }],
    ];
    for (const [path, partial] of cases) {
      const issues = await issuesOf(partial);
      expect(issues?.some((issue) => issue.startsWith(`${path}: `))).toBe(true);
    }
    expect(tools.received).toHaveLength(0);
  });

  it('reports a missing property next to the other issues, once', async () => {
    const issues = await issuesOf({ items: [{ sku: 7, price: { cents: 1 } }] });
    expect(issues).toEqual(['items.0.sku: must be a string', 'shipTo: is required']);
  });

  it('refuses unknown fields at every level, as the schema says', async () => {
    const args = validArgs();
    expect(await issuesOf({ ...args, shipTo: { ...args.shipTo, zip: '1' } })).toEqual([
      'shipTo.zip: should not exist',
    ]);
  });

  it('runs the tool when optional DTOs are left out, or null (OpenAI strict mode)', async () => {
    expect(await call(validArgs())).toMatchObject({ success: true });
    const strictArgs = { ...validArgs(), billTo: null, note: null };
    expect(await call(strictArgs)).toMatchObject({ success: true });
    const nested = { ...validArgs(), shipTo: { street: '1 Main St', floor: null } };
    expect(await call(nested)).toMatchObject({ success: true });
  });

  it('hands the tool instances of the DTO classes at every level, with what was sent', async () => {
    const args = { ...validArgs(), billTo: null, extras: [] };
    expect(await call(args)).toMatchObject({ success: true });
    const received = tools.received.at(-1);
    expect(received).toStrictEqual(
      Object.assign(new PlaceOrderArgs(), {
        shipTo: Object.assign(new Address(), { street: '1 Main St' }),
        items: [
          Object.assign(new LineItem(), {
            sku: 'A-1',
            price: Object.assign(new Money(), { cents: 250 }),
          }),
        ],
        billTo: null,
        extras: [],
      }),
    );
  });

  it('proves a valid call valid without class-validator, and asks it about an invalid one', async () => {
    // the pipe's class-validator step, in whichever instance each lane uses
    const classValidator = jest.spyOn(
      ToolValidationPipe.prototype as unknown as { validate: () => Promise<unknown> },
      'validate',
    );
    try {
      expect(await call(validArgs())).toMatchObject({ success: true });
      expect(classValidator).not.toHaveBeenCalled();
      expect(await issuesOf({ ...validArgs(), note: 5 })).toEqual(['note: must be a string']);
      expect(classValidator).toHaveBeenCalledTimes(1);
    } finally {
      classValidator.mockRestore();
    }
  });

  it('exports a strict-mode tool whose every object level is closed and fully required', () => {
    const definition = ctx.registry.get('place_order')?.definition;
    if (!definition) throw new Error('place_order is not registered');
    const strict = toOpenAIStrictFunctionTool(definition);
    expect(strict.function.strict).toBe(true);
    expect(strict.function.parameters).toMatchObject({
      required: ['shipTo', 'items', 'billTo', 'extras', 'note'],
      additionalProperties: false,
      properties: {
        note: { type: ['string', 'null'] },
        billTo: {
          anyOf: [expect.objectContaining({ additionalProperties: false }), { type: 'null' }],
        },
      },
    });
  });
});
