import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { NetworkError, type ToolCallContext, type ToolFailure } from '@toolshield/core';
import { type ToolEvent } from '@toolshield/core/events';
import { toMcpTool } from '@toolshield/core/internal';
import { IsInt, IsString, Min } from 'class-validator';
import {
  Tool,
  ToolRegistrar,
  type ToolRegistration,
  type ToolRegistryChange,
} from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';
import { settle } from '../policies/fixtures/drive.js';

class TransferArgs {
  @IsString() to!: string;
  @IsInt() @Min(1) cents!: number;
}

const echo: ToolRegistration = {
  name: 'echo',
  description: 'Echoes its arguments.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  handler: (args, call) => ({ args, callId: call.callId, attempt: call.attempt }),
};

@Injectable()
class BootTools implements OnModuleInit {
  constructor(private readonly registrar: ToolRegistrar) {}

  onModuleInit(): void {
    this.registrar.register(echo);
  }
}

@Injectable()
class DecoratedTools {
  @Tool({ name: 'taken', description: 'A decorated tool.' })
  taken() {
    return 'decorated';
  }
}

type App = Awaited<ReturnType<typeof createToolApp>>;

describe('ToolRegistrar: tools registered in code', () => {
  let app: App | undefined;
  const start = async (providers: unknown[] = [BootTools]) => {
    app = await createToolApp(providers as never[]);
    return { ...app, registrar: app.moduleRef.get(ToolRegistrar) };
  };
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('registers a tool from a provider at bootstrap: listed, rendered and callable like a decorated one', async () => {
    const { registry, executor } = await start([BootTools, DecoratedTools]);
    expect(registry.names()).toEqual(['taken', 'echo']);
    expect(registry.definitions().map(toMcpTool)).toContainEqual({
      name: 'echo',
      description: 'Echoes its arguments.',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
    });
    const outcome = await executor.execute({ id: 'c1', name: 'echo', arguments: '{"text":"hi"}' });
    expect(outcome).toMatchObject({
      success: true,
      output: { args: { text: 'hi' }, callId: 'c1', attempt: 1 },
    });
  });

  it('adds and removes tools at run time, reporting each change', async () => {
    const { registry, registrar, executor } = await start([]);
    const changes: ToolRegistryChange[] = [];
    registry.changes$.subscribe((change) => changes.push(change));

    const handle = registrar.register({ ...echo, name: 'late' });
    expect(await executor.execute({ name: 'late', arguments: {} })).toMatchObject({
      success: true,
    });
    expect(handle.remove()).toBe(true);
    expect(handle.remove()).toBe(false);
    const gone = (await executor.execute({ name: 'late', arguments: {} })) as ToolFailure;
    expect(gone).toMatchObject({ success: false, errorType: 'tool_not_found' });

    registrar.register({ ...echo, name: 'again' });
    expect(registrar.unregister('again')).toBe(true);
    expect(changes).toEqual([
      { type: 'registered', name: 'late' },
      { type: 'unregistered', name: 'late' },
      { type: 'registered', name: 'again' },
      { type: 'unregistered', name: 'again' },
    ]);
  });

  it('validates and transforms arguments against a DTO, deriving the schema from it', async () => {
    const { registry, registrar, executor } = await start([]);
    registrar.register<TransferArgs>({
      name: 'transfer',
      description: 'Moves money.',
      argsType: TransferArgs,
      handler: (args) => ({ isDto: args instanceof TransferArgs, cents: args.cents }),
    });
    expect(registry.get('transfer')?.definition.inputSchema).toMatchObject({
      properties: { to: { type: 'string' }, cents: { type: 'integer' } },
      required: ['to', 'cents'],
    });
    expect(
      await executor.execute({ name: 'transfer', arguments: { to: 'bob', cents: 5 } }),
    ).toMatchObject({ success: true, output: { isDto: true, cents: 5 } });
    const invalid = (await executor.execute({
      name: 'transfer',
      arguments: { to: 'bob', cents: 0 },
    })) as ToolFailure;
    expect(invalid.errorType).toBe('invalid_input');
    expect(invalid.issues?.map((issue) => issue.path)).toEqual(['cents']);
  });

  it('applies the same policies: retries an idempotent tool, times out with its signal aborted, emits events', async () => {
    const { registrar, executor, clock } = await start([]);
    const events: ToolEvent[] = [];
    executor.events$.subscribe((event) => events.push(event));
    let calls = 0;
    registrar.register({
      name: 'flaky',
      description: 'Fails twice, then works.',
      idempotent: true,
      handler: () => {
        calls += 1;
        if (calls < 3) throw new NetworkError('connection reset');
        return 'ok';
      },
    });
    let signal: AbortSignal | undefined;
    registrar.register({
      name: 'hangs',
      description: 'Never answers.',
      timeoutMs: 100,
      handler: (_args, call: ToolCallContext) => {
        signal = call.signal;
        return new Promise(() => undefined);
      },
    });

    const flaky = await settle(clock, executor.execute({ id: 'f', name: 'flaky', arguments: {} }));
    expect(flaky).toMatchObject({ success: true, output: 'ok', metadata: { attempts: 3 } });
    const hung = await settle(clock, executor.execute({ id: 'h', name: 'hangs', arguments: {} }));
    expect(hung).toMatchObject({ success: false, errorType: 'timeout' });
    expect(signal?.aborted).toBe(true);
    const types = events
      .filter((event) => 'callId' in event && event.callId === 'f')
      .map((event) => event.type);
    expect(types.filter((type) => type === 'retry.scheduled')).toHaveLength(2);
    expect(types.at(-1)).toBe('call.succeeded');
  });

  it('lets tools share one breaker by name: failures of one fail the others fast', async () => {
    const { registrar, executor } = await start([]);
    const breaker = { name: 'remote', volumeThreshold: 2, errorThresholdPercentage: 50 };
    let reached = 0;
    for (const name of ['remote__a', 'remote__b'])
      registrar.register({
        name,
        description: 'A tool of one remote server.',
        breaker,
        handler: () => {
          reached += 1;
          throw new NetworkError('connection refused');
        },
      });
    await executor.execute({ name: 'remote__a', arguments: {} });
    await executor.execute({ name: 'remote__a', arguments: {} });
    const fast = (await executor.execute({ name: 'remote__b', arguments: {} })) as ToolFailure;
    expect(fast.errorType).toBe('circuit_open');
    expect(reached).toBe(2);
  });

  it('refuses what @Tool() refuses, at once, registering nothing', async () => {
    const { registry, registrar } = await start([DecoratedTools]);
    expect(() => registrar.register({ ...echo, name: 'taken' })).toThrow(
      'Tool name "taken" is registered twice (DecoratedTools.taken and registered tool "taken")',
    );
    expect(() => registrar.register({ ...echo, name: 'bad name' })).toThrow('is not portable');
    expect(() => registrar.register({ ...echo, description: ' ' })).toThrow('has no description');
    expect(registry.names()).toEqual(['taken']);
  });

  it('refuses a second registration of one name before bootstrap too', async () => {
    @Injectable()
    class Twice implements OnModuleInit {
      constructor(private readonly registrar: ToolRegistrar) {}
      onModuleInit(): void {
        this.registrar.register(echo);
        this.registrar.register({ ...echo, source: 'Twice.second' });
      }
    }
    await expect(createToolApp([Twice])).rejects.toThrow(
      'Tool name "echo" is registered twice (registered tool "echo" and Twice.second)',
    );
  });
});
