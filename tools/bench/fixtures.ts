/**
 * Benchmark fixtures that need decorators (compiled with tsc, see tools/tsconfig.bench.json).
 * Every tool does the same trivial work, so the rows differ only by what wraps the call.
 */
import 'reflect-metadata';
import {
  Injectable,
  Module,
  UseInterceptors,
  type CallHandler,
  type DynamicModule,
  type ExecutionContext,
  type INestApplicationContext,
  type NestInterceptor,
  type Type,
} from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { APP_INTERCEPTOR, ExternalContextCreator, type ParamsFactory } from '@nestjs/core';
import type { ToolCallContext } from '@toolshield/core';
import { Tool, ToolArgs, ToolCall, ToolShieldModule } from '@toolshield/nest';
import { ToolShieldTelemetryModule } from '@toolshield/nest/telemetry';
import { IsString, Length } from 'class-validator';
import type { Observable } from 'rxjs';

/** Plain (unvalidated) arguments: the `@ToolArgs()` pipe sees `Object` and passes them through. */
export interface LookupArgs {
  city: string;
}

/** A class-validator DTO, validated and transformed by `@ToolArgs()`'s default pipe. */
export class LookupDto {
  @IsString() @Length(2, 80) city!: string;
}

/** The work every row does: an async method returning a small object. */
export async function lookupBody(args: LookupArgs): Promise<{ city: string; tempC: number }> {
  return { city: args.city, tempC: 18 };
}

@Injectable()
export class BenchTools {
  @Tool({ name: 'lookup', description: 'Benchmark tool with the default policies.' })
  async lookup(@ToolArgs() args: LookupArgs, @ToolCall() _call: ToolCallContext) {
    return lookupBody(args);
  }

  @Tool({
    name: 'lookup_idempotent',
    description: 'Benchmark tool with retry, breaker and timeout.',
    idempotent: true,
  })
  async lookupIdempotent(@ToolArgs() args: LookupArgs, @ToolCall() _call: ToolCallContext) {
    return lookupBody(args);
  }

  @Tool({ name: 'lookup_dto', description: 'Benchmark tool with DTO validation.' })
  async lookupDto(@ToolArgs() args: LookupDto, @ToolCall() _call: ToolCallContext) {
    return lookupBody(args);
  }
}

/** The one pass-through interceptor of the bare Nest row. */
export class PassThroughInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle();
  }
}

/** The bare Nest row's provider: no toolshield, one pass-through interceptor. */
@Injectable()
export class BareTools {
  @UseInterceptors(new PassThroughInterceptor())
  async lookup(args: LookupArgs, _call: unknown) {
    return lookupBody(args);
  }
}

class PassArgs implements ParamsFactory {
  exchangeKeyForValue(_type: number, _data: unknown, args: unknown[]): unknown {
    return args[0];
  }
}

/**
 * The bare Nest row (b): `BareTools.lookup` through `ExternalContextCreator` with its one
 * pass-through interceptor, in an application that provides `BareTools`.
 */
export function bareNestCall(
  app: INestApplicationContext,
): (args: unknown, call: unknown) => Promise<unknown> {
  const bare = app.get(BareTools);
  return app
    .get(ExternalContextCreator)
    .create(
      bare,
      Object.getPrototypeOf(bare).lookup,
      'lookup',
      ROUTE_ARGS_METADATA,
      new PassArgs(),
      undefined,
      undefined,
      undefined,
      'tool',
    ) as (args: unknown, call: unknown) => Promise<unknown>;
}

/**
 * toolshield's structural floor: the same Nest machinery a default tool goes through (two
 * interceptors, `@ToolArgs()` with its validation pipe, `@ToolCall()`), every layer a
 * pass-through, no policy work.
 */
@Injectable()
export class FloorTools {
  @UseInterceptors(new PassThroughInterceptor(), new PassThroughInterceptor())
  async lookup(@ToolArgs() args: LookupArgs, @ToolCall() _call: ToolCallContext) {
    return lookupBody(args);
  }
}

@Module({ imports: [ToolShieldModule.forRoot({})], providers: [BenchTools, BareTools, FloorTools] })
export class BenchModule {}

/**
 * The same tools in an application with one global pass-through interceptor of its own: what a
 * tool costs when an enhancer of yours runs around it.
 */
@Module({
  imports: [ToolShieldModule.forRoot({})],
  providers: [BenchTools, { provide: APP_INTERCEPTOR, useClass: PassThroughInterceptor }],
})
export class InterceptedBenchModule {}

const TOOLS_PER_CLASS = 100;

/**
 * A module with `count` generated tools (`tool_0` ... `tool_{count-1}`) spread over provider
 * classes of up to 100 tools each, all with the default policies.
 */
export function manyToolsModule(count: number): DynamicModule {
  const providers: Type[] = [];
  for (let start = 0; start < count; start += TOOLS_PER_CLASS) {
    const className = `GeneratedTools${start / TOOLS_PER_CLASS}`;
    const host = { [className]: class {} }[className] as Type;
    for (let i = start; i < Math.min(count, start + TOOLS_PER_CLASS); i++) {
      const key = `tool${i}`;
      const n = i;
      const method = async function (this: unknown, args: LookupArgs) {
        return { city: args.city, n };
      };
      const descriptor: PropertyDescriptor = { value: method, writable: true, configurable: true };
      Object.defineProperty(host.prototype, key, descriptor);
      Tool({ name: `tool_${i}`, description: `Generated benchmark tool ${i}.` })(
        host.prototype,
        key,
        descriptor,
      );
      ToolArgs()(host.prototype, key, 0);
    }
    Injectable()(host);
    providers.push(host);
  }
  return { module: class ManyToolsModule {}, imports: [ToolShieldModule.forRoot({})], providers };
}

/**
 * The same tools with the telemetry module imported and no OpenTelemetry SDK registered: the
 * row that shows what telemetry costs when nothing records it.
 */
@Module({
  imports: [ToolShieldModule.forRoot({ isGlobal: true }), ToolShieldTelemetryModule.forRoot()],
  providers: [BenchTools],
})
export class TelemetryBenchModule {}
