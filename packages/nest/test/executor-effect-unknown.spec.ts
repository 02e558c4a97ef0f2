import { afterEach, describe, expect, it } from '@jest/globals';
import { Injectable } from '@nestjs/common';
import {
  NetworkError,
  type ToolCallContext,
  type ToolFailure,
  type ToolOutcome,
} from '@toolshield/core';
import { toOpenAIToolMessage } from '@toolshield/core/agent';
import { Tool, ToolCall } from '../src/index.js';
import { createToolApp } from './fixtures/create-app.js';

/** An upstream that takes a booking when the request arrives, then answers (or not). */
class BookingUpstream {
  readonly bookings: string[] = [];
  readonly keys: (string | undefined)[] = [];

  take(call: ToolCallContext): void {
    this.bookings.push(call.callId);
    this.keys.push(call.idempotencyKey);
  }
}

const upstream = new BookingUpstream();
const hang = () => new Promise<never>(() => undefined);
const socketHangUp = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

@Injectable()
class TravelTools {
  @Tool({
    name: 'book_flight',
    description: 'Books a flight; charges the card.',
    timeoutMs: 200,
    annotations: { destructiveHint: true },
  })
  async bookFlight(@ToolCall() call: ToolCallContext): Promise<never> {
    upstream.take(call);
    return hang();
  }

  @Tool({ name: 'book_hotel', description: 'Books a hotel.' })
  async bookHotel(@ToolCall() call: ToolCallContext): Promise<never> {
    upstream.take(call);
    throw socketHangUp();
  }

  @Tool({ name: 'book_car', description: 'Books a car; the rental API was unreachable.' })
  async bookCar(): Promise<never> {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  }

  @Tool({ name: 'charge_card', description: 'Charges a card.' })
  async chargeCard(): Promise<never> {
    throw new NetworkError('The card network dropped the connection.', { retryable: false });
  }

  @Tool({
    name: 'search_flights',
    description: 'Searches flights.',
    timeoutMs: 200,
    annotations: { readOnlyHint: true },
  })
  async searchFlights(): Promise<never> {
    return hang();
  }
}

/** What the model reads, as the OpenAI tool message carries it, and the failure itself. */
function readByTheModel(outcome: ToolOutcome): { text: string; failure: ToolFailure } {
  expect(outcome.success).toBe(false);
  return { text: toOpenAIToolMessage(outcome).content, failure: outcome as ToolFailure };
}

describe('a failed call of a tool with side effects, through the executor', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    upstream.bookings.length = 0;
    upstream.keys.length = 0;
  });

  async function app() {
    const ctx = await createToolApp([TravelTools]);
    close = ctx.close;
    return ctx;
  }

  it('whose upstream took the booking and then hung: the model reads that it may have happened, not to retry', async () => {
    const { executor, clock } = await app();
    const outcome = await clock.runUntilSettled(
      executor.execute(
        { id: 'call_3', name: 'book_flight', arguments: {} },
        { idempotencyKey: 'trip-1:call_3' },
      ),
    );
    const { text, failure } = readByTheModel(outcome);
    expect(upstream.bookings).toEqual(['call_3']);
    expect(failure).toMatchObject({
      errorType: 'timeout',
      effect: 'unknown',
      recoverable: false,
      metadata: { idempotencyKey: 'trip-1:call_3' },
    });
    expect(failure.metadata['idempotencyKey']).toBe(upstream.keys[0]);
    expect(text).toBe(
      [
        'Tool book_flight failed: timeout, attempt 1/1.',
        'Timed out after 200 ms.',
        'It may have taken effect.',
        'Next: Check whether it took effect with a read tool or ask the user; do not repeat it.',
      ].join('\n'),
    );
  });

  it('whose connection dropped after the request went out (ECONNRESET): the same, with the key the tool sent', async () => {
    const { executor, clock } = await app();
    const outcome = await clock.runUntilSettled(
      executor.execute({ id: 'call_4', name: 'book_hotel', arguments: {} }),
    );
    const { text, failure } = readByTheModel(outcome);
    expect(failure).toMatchObject({ errorType: 'network', effect: 'unknown', recoverable: false });
    expect(failure.metadata['idempotencyKey']).toBe(upstream.keys[0]);
    expect(text).toContain('socket hang up.\nIt may have taken effect.');
    expect(text).not.toMatch(/\bRetry/);
  });

  it('cancelled by the caller while it ran: it may have happened too', async () => {
    const { executor, clock } = await app();
    const caller = new AbortController();
    const running = executor.execute(
      { id: 'call_5', name: 'book_flight', arguments: {} },
      { signal: caller.signal },
    );
    await clock.advanceBy(50);
    caller.abort();
    const { failure } = readByTheModel(await clock.runUntilSettled(running));
    expect(failure).toMatchObject({
      errorType: 'cancelled',
      effect: 'unknown',
      recoverable: false,
    });
  });

  it('whose connection was refused never sent anything: calling again is safe and may succeed', async () => {
    const { executor, clock } = await app();
    const { text, failure } = readByTheModel(
      await clock.runUntilSettled(
        executor.execute({ id: 'call_6', name: 'book_car', arguments: {} }),
      ),
    );
    expect(failure).not.toHaveProperty('effect');
    expect(failure).toMatchObject({ errorType: 'network', recoverable: true });
    expect(text).toContain('Next: Retry shortly; the connection failed.');
  });

  it("that threw NetworkError with retryable: false: the tool's word wins, not recoverable, no retry advice", async () => {
    const { executor, clock } = await app();
    const { text, failure } = readByTheModel(
      await clock.runUntilSettled(
        executor.execute({ id: 'call_7', name: 'charge_card', arguments: {} }),
      ),
    );
    expect(failure).toMatchObject({ errorType: 'network', recoverable: false });
    expect(text).not.toMatch(/\bRetry|Retrying may help/);
  });

  it('leaves a read-only tool that timed out advising one retry', async () => {
    const { executor, clock } = await app();
    const { failure } = readByTheModel(
      await clock.runUntilSettled(
        executor.execute({ id: 'call_8', name: 'search_flights', arguments: {} }),
      ),
    );
    expect(failure).not.toHaveProperty('effect');
    expect(failure).toMatchObject({
      errorType: 'timeout',
      recoverable: true,
      suggestions: ['Retry once; if it times out again, narrow the request.'],
    });
  });
});
