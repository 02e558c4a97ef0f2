import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import type { ToolCallContext } from '@toolshield/core';
import { IsString } from 'class-validator';
import { of, type Observable } from 'rxjs';
import { Tool, ToolArgs, ToolCall } from '../src/index.js';
import { createToolApp } from './fixtures/create-app.js';

class EchoArgs {
  @IsString() text!: string;
}

@Injectable()
class ParameterTools {
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
}

describe("a tool method's parameters and value", () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  const run = async (name: string, args: string) => {
    const ctx = await createToolApp([ParameterTools]);
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
});
