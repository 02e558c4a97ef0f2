import { afterEach, describe, expect, it } from '@jest/globals';
import {
  Catch,
  Injectable,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  createParamDecorator,
  type ExceptionFilter,
  type ExecutionContext,
  type PipeTransform,
} from '@nestjs/common';
import { APP_GUARD, APP_PIPE } from '@nestjs/core';
import type { ToolCallContext } from '@toolshield/core';
import { IsString } from 'class-validator';
import { of, type Observable } from 'rxjs';
import { Tool, ToolArgs, ToolCall, type ToolLane } from '../src/index.js';
import { PassThroughInterceptor, createToolApp } from './fixtures/create-app.js';

class Identity implements PipeTransform {
  transform(value: unknown) {
    return value;
  }
}

@Catch()
class CatchAll implements ExceptionFilter {
  catch() {
    return { caught: true };
  }
}

const AllowAll = { canActivate: () => true };
const Raw = createParamDecorator((_data: unknown, context: ExecutionContext) =>
  context.getArgByIndex(0),
);

class EchoArgs {
  @IsString() text!: string;
}

@Injectable()
class LaneTools {
  @Tool({ description: 'Plain arguments and the call.' })
  plain(@ToolArgs() args: { text: string }, @ToolCall() call: ToolCallContext) {
    return { text: args.text, callId: call.callId, attempt: call.attempt };
  }

  @Tool({ description: 'DTO-validated arguments.' })
  dto(@ToolArgs() args: EchoArgs) {
    return { text: args.text, isDto: args instanceof EchoArgs };
  }

  @Tool({ description: 'No parameter decorators: Nest passes (args, call).' })
  positional(args: { text: string }, call: ToolCallContext) {
    return { text: args.text, callId: call.callId };
  }

  @Tool({ description: 'Returns an Observable; its last value is the output.' })
  stream(): Observable<number> {
    return of(1, 2, 3);
  }

  @Tool({ description: 'Its own interceptor.' })
  @UseInterceptors(PassThroughInterceptor)
  intercepted(@ToolArgs() args: { text: string }) {
    return { text: args.text };
  }

  @Tool({ description: 'Its own guard.' })
  @UseGuards(AllowAll)
  guarded(@ToolArgs() args: { text: string }) {
    return { text: args.text };
  }

  @Tool({ description: 'Its own method pipe.' })
  @UsePipes(Identity)
  piped(@ToolArgs() args: { text: string }) {
    return { text: args.text };
  }

  @Tool({ description: 'Its own parameter pipe.' })
  paramPiped(@ToolArgs(Identity) args: { text: string }) {
    return { text: args.text };
  }

  @Tool({ description: 'Its own filter.' })
  @UseFilters(CatchAll)
  filtered(): never {
    throw new Error('boom');
  }

  @Tool({ description: 'A custom parameter decorator.' })
  custom(@Raw() args: { text: string }) {
    return { text: args.text };
  }
}

@Injectable()
@UseInterceptors(PassThroughInterceptor)
class ClassInterceptedTools {
  @Tool({ description: 'Its class has an interceptor.' })
  classIntercepted(@ToolArgs() args: { text: string }) {
    return { text: args.text };
  }
}

const lanes = (registry: {
  names(): string[];
  get(name: string): { lane: ToolLane } | undefined;
}) => Object.fromEntries(registry.names().map((name) => [name, registry.get(name)?.lane]));

describe('tool lanes', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it("runs a tool on the direct lane only when nothing of the user's would run around it", async () => {
    const ctx = await createToolApp([LaneTools, ClassInterceptedTools], {}, {}, { lane: 'auto' });
    close = ctx.close;
    expect(lanes(ctx.registry)).toEqual({
      plain: 'direct',
      dto: 'direct',
      positional: 'direct',
      stream: 'direct',
      intercepted: 'nest',
      guarded: 'nest',
      piped: 'nest',
      paramPiped: 'nest',
      filtered: 'nest',
      custom: 'nest',
      classIntercepted: 'nest',
    });
  });

  it.each([
    ['a global guard', { provide: APP_GUARD, useValue: AllowAll }],
    ['a global pipe', { provide: APP_PIPE, useClass: Identity }],
  ])('puts every tool on the Nest lane when the application has %s', async (_label, provider) => {
    const ctx = await createToolApp([LaneTools, provider], {}, {}, { lane: 'auto' });
    close = ctx.close;
    expect(new Set(Object.values(lanes(ctx.registry)))).toEqual(new Set(['nest']));
  });

  describe.each(['auto', 'nest'] as const)(
    'with lane %s, a call gets what Nest would give it',
    (lane) => {
      const run = async (name: string, args: string) => {
        const ctx = await createToolApp([LaneTools], {}, {}, { lane });
        close = ctx.close;
        return ctx.executor.execute({ id: 'call_1', name, arguments: args });
      };

      it('fills @ToolArgs and @ToolCall', async () => {
        await expect(run('plain', '{"text":"hi"}')).resolves.toMatchObject({
          success: true,
          output: { text: 'hi', callId: 'call_1', attempt: 1 },
        });
      });

      it('validates and transforms DTO arguments, refusing unknown fields', async () => {
        await expect(run('dto', '{"text":"hi"}')).resolves.toMatchObject({
          success: true,
          output: { text: 'hi', isDto: true },
        });
        await expect(run('dto', '{"text":"hi","extra":1}')).resolves.toMatchObject({
          success: false,
          errorType: 'invalid_input',
          issues: [expect.objectContaining({ path: 'extra' })],
        });
      });

      it('passes (args, call) to a method without parameter decorators', async () => {
        await expect(run('positional', '{"text":"hi"}')).resolves.toMatchObject({
          success: true,
          output: { text: 'hi', callId: 'call_1' },
        });
      });

      it("takes an Observable's last value", async () => {
        await expect(run('stream', '{}')).resolves.toMatchObject({ success: true, output: 3 });
      });
    },
  );
});
