import { afterEach, describe, expect, it } from '@jest/globals';
import {
  Catch,
  Controller,
  Get,
  Injectable,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { type ToolFailure, type ToolResult } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import request from 'supertest';
import { tap } from 'rxjs';
import {
  Tool,
  ToolArgs,
  ToolExecutionContext,
  ToolExecutor,
  ToolShieldModule,
} from '../src/index.js';
import { createToolApp } from './fixtures/create-app.js';

const log: string[] = [];

@Injectable()
class GlobalInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    log.push(`global:${context.getType()}`);
    return next.handle();
  }
}

@Injectable()
class MethodInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    log.push(`method:${context.getType()}:${context.getClass().name}.${context.getHandler().name}`);
    return next.handle().pipe(tap(() => log.push('method:after')));
  }
}

@Injectable()
class OnlyAdminsGuard implements CanActivate {
  canActivate(context: ExecutionContext) {
    log.push(`guard:${context.getType()}`);
    if (!ToolExecutionContext.isTool(context)) return true;
    return ToolExecutionContext.create(context).getCall().metadata.role === 'admin';
  }
}

class UppercasePipe implements PipeTransform {
  transform(value: unknown) {
    log.push('pipe');
    const args = value as { text: string };
    return { text: args.text.toUpperCase() };
  }
}

class DomainError extends Error {}

@Catch(DomainError)
class DomainFilter implements ExceptionFilter {
  catch(error: DomainError, host: ArgumentsHost) {
    return { handledBy: 'DomainFilter', type: host.getType(), message: error.message };
  }
}

@Injectable()
class AdminTools {
  bodyRuns = 0;

  @Tool({ name: 'wipe', description: 'Deletes everything.' })
  @UseGuards(OnlyAdminsGuard)
  wipe() {
    this.bodyRuns++;
    return 'wiped';
  }

  @Tool({ name: 'shout', description: 'Upper-cases text.', inputSchema: { type: 'object' } })
  @UseInterceptors(MethodInterceptor)
  @UsePipes(UppercasePipe)
  shout(@ToolArgs(UppercasePipe) args: { text: string }) {
    log.push('method');
    return args.text;
  }

  @Tool({ name: 'domain', description: 'Fails with a domain error.' })
  @UseFilters(DomainFilter)
  domain() {
    throw new DomainError('order 7 is locked');
  }
}

@Controller('ping')
class PingController {
  @Get()
  ping() {
    return { pong: true };
  }
}

afterEach(() => {
  log.length = 0;
});

describe('Nest enhancers on tools', () => {
  it('denies through a guard with permission_denied, and the body never runs', async () => {
    const ctx = await createToolApp([AdminTools]);
    const tools = ctx.moduleRef.get(AdminTools);
    const denied = (await ctx.executor.execute(
      { name: 'wipe' },
      { metadata: { role: 'guest' } },
    )) as ToolFailure;
    expect(denied.errorType).toBe('permission_denied');
    expect(tools.bodyRuns).toBe(0);
    const allowed = (await ctx.executor.execute(
      { name: 'wipe' },
      { metadata: { role: 'admin' } },
    )) as ToolResult;
    expect(allowed.output).toBe('wiped');
    expect(tools.bodyRuns).toBe(1);
    await ctx.close();
  });

  it('runs guard, global interceptor, method interceptor, pipes and method in order, all with type "tool"', async () => {
    const ctx = await createToolApp([
      AdminTools,
      { provide: APP_INTERCEPTOR, useClass: GlobalInterceptor },
    ]);
    const outcome = (await ctx.executor.execute({
      name: 'shout',
      arguments: { text: 'hi' },
    })) as ToolResult;
    expect(outcome.output).toBe('HI');
    expect(log).toEqual([
      'global:tool',
      'method:tool:AdminTools.shout',
      'pipe',
      'pipe',
      'method',
      'method:after',
    ]);
    await ctx.close();
  });

  it("lets the tool's own @UseFilters() answer before toolshield's filter", async () => {
    const ctx = await createToolApp([AdminTools]);
    const outcome = await ctx.executor.execute({ name: 'domain' });
    expect(outcome).toMatchObject({
      success: true,
      output: { handledBy: 'DomainFilter', type: 'tool', message: 'order 7 is locked' },
    });
    await ctx.close();
  });

  it('coexists with global HTTP enhancers: both HTTP routes and tools keep working', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ToolShieldModule.forRoot({ clock: new VirtualClock() })],
      controllers: [PingController],
      providers: [
        AdminTools,
        { provide: APP_GUARD, useClass: OnlyAdminsGuard },
        { provide: APP_INTERCEPTOR, useClass: GlobalInterceptor },
      ],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();

    await request(app.getHttpServer()).get('/ping').expect(200, { pong: true });
    expect(log).toEqual(['guard:http', 'global:http']);

    log.length = 0;
    const executor = app.get(ToolExecutor);
    const outcome = (await executor.execute(
      { name: 'shout', arguments: { text: 'ok' } },
      { metadata: { role: 'admin' } },
    )) as ToolResult;
    expect(outcome.output).toBe('OK');
    expect(log.slice(0, 2)).toEqual(['guard:tool', 'global:tool']);
    await app.close();
  });

  it('does not stack interceptors when two applications share the same tool class', async () => {
    const first = await createToolApp([AdminTools]);
    await first.close();
    const second = await createToolApp([AdminTools]);
    await second.executor.execute({ name: 'shout', arguments: { text: 'x' } });
    expect(log.filter((entry) => entry.startsWith('method:tool'))).toHaveLength(1);
    await second.close();
  });
});
