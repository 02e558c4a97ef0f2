import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import type { ToolCallContext } from '@toolshield/core';
import type { ChatModel } from '@toolshield/core/agent';
import {
  AgentRunnerFactory,
  Tool,
  ToolArgs,
  ToolCall,
  type ToolShieldModuleOptions,
} from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';

/** An upstream that deduplicates by `Idempotency-Key`: a known key gets the first booking back. */
class BookingDesk {
  readonly requested: string[] = [];
  private readonly bookings = new Map<string, { booking: number; flight: string }>();

  book(key: string, flight: string) {
    this.requested.push(key);
    const known = this.bookings.get(key);
    if (known) return known;
    const made = { booking: this.bookings.size + 1, flight };
    this.bookings.set(key, made);
    return made;
  }

  get created(): number {
    return this.bookings.size;
  }
}

@Injectable()
class BookingTools {
  readonly desk = new BookingDesk();

  @Tool({
    name: 'book_flight',
    description: 'Books a flight and charges the card.',
    inputSchema: { type: 'object', properties: { flight: { type: 'string' } } },
    annotations: { destructiveHint: true },
  })
  book(@ToolArgs() args: { flight: string }, @ToolCall() call: ToolCallContext) {
    return this.desk.book(call.idempotencyKey ?? call.callId, args.flight);
  }
}

/** A model that books `flight` as `call_3` (models number their calls per conversation), then stops. */
function bookingModel(flight: string): ChatModel {
  let turn = 0;
  return async () => {
    turn += 1;
    if (turn === 1) {
      const toolCalls = [{ id: 'call_3', name: 'book_flight', arguments: { flight } }];
      return { role: 'assistant', content: '', toolCalls };
    }
    const toolCalls = [
      { id: 'call_4', name: 'complete', arguments: { answer: `Booked ${flight}.` } },
    ];
    return { role: 'assistant', content: '', toolCalls };
  };
}

describe('idempotency keys scoped by conversation', () => {
  const apps: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  async function bookingApp(options: ToolShieldModuleOptions = {}) {
    const ctx = await createToolApp([BookingTools], options);
    apps.push(ctx);
    return { ...ctx, desk: ctx.moduleRef.get(BookingTools).desk };
  }

  it('gives two conversations whose model reused call_3 two keys: the upstream books twice', async () => {
    const { moduleRef, desk } = await bookingApp();
    const agents = moduleRef.get(AgentRunnerFactory);

    const alice = await agents
      .create({ model: bookingModel('AF123') })
      .run({ conversationId: 'alice', input: 'Book AF123.' });
    const bob = await agents
      .create({ model: bookingModel('LH456') })
      .run({ conversationId: 'bob', input: 'Book LH456.' });

    expect(desk.created).toBe(2);
    expect(desk.requested).toEqual(['alice:call_3', 'bob:call_3']);
    // No "There is no tool named complete": the runner offered its own completion tool.
    expect(alice).toMatchObject({ status: 'completed', finalAnswer: 'Booked AF123.' });
    expect(bob).toMatchObject({ status: 'completed', finalAnswer: 'Booked LH456.' });
  });

  it('gives the same call of the same conversation the same key after a restart', async () => {
    const call = { id: 'call_3', name: 'book_flight', arguments: { flight: 'AF123' } };
    const before = await bookingApp();
    await before.executor.execute(call, { conversationId: 'alice' });
    const after = await bookingApp();
    await after.executor.execute(call, { conversationId: 'alice' });

    expect([...before.desk.requested, ...after.desk.requested]).toEqual([
      'alice:call_3',
      'alice:call_3',
    ]);
  });

  it('gives every call made without a conversation a key of its own', async () => {
    const { executor, desk } = await bookingApp();
    const call = { id: 'call_3', name: 'book_flight', arguments: { flight: 'AF123' } };
    await executor.execute(call);
    await executor.execute(call);

    expect(desk.created).toBe(2);
    expect(desk.requested[0]).not.toBe(desk.requested[1]);
    expect(desk.requested).toEqual([
      expect.stringMatching(/:call_3$/),
      expect.stringMatching(/:call_3$/),
    ]);
  });

  it("builds keys with the module's idempotencyKey hook; a call's own key wins", async () => {
    const { executor, desk } = await bookingApp({
      idempotencyKey: ({ conversationId, callId, toolName, metadata }) =>
        `${String(metadata.tenant)}/${conversationId ?? '-'}/${toolName}/${callId}`,
    });
    const call = { id: 'call_3', name: 'book_flight', arguments: { flight: 'AF123' } };
    await executor.execute(call, { conversationId: 'alice', metadata: { tenant: 'acme' } });
    await executor.execute(call, { conversationId: 'alice', idempotencyKey: 'chosen' });

    expect(desk.requested).toEqual(['acme/alice/book_flight/call_3', 'chosen']);
  });

  it("fails the call as internal, before the tool runs, when the hook's key is not a text", async () => {
    const { executor, desk } = await bookingApp({ idempotencyKey: () => ' ' });
    const outcome = await executor.execute({ id: 'c1', name: 'book_flight', arguments: {} });

    expect(outcome).toMatchObject({ success: false, errorType: 'internal' });
    expect(desk.requested).toEqual([]);
  });

  it('lets a runner build execute options per call, with the conversation', async () => {
    const { moduleRef, desk } = await bookingApp();
    const runner = moduleRef.get(AgentRunnerFactory).create({
      model: bookingModel('AF123'),
      execute: (call, { conversationId }) => ({
        idempotencyKey: `tenant-7:${conversationId}:${call.id}`,
      }),
    });

    await runner.run({ conversationId: 'alice', input: 'Book AF123.' });

    expect(desk.requested).toEqual(['tenant-7:alice:call_3']);
  });
});
