import { describe, expect, it } from '@jest/globals';
import { Inject, Injectable } from '@nestjs/common';
import { type ToolCallContext } from '@toolshield/core';
import { VirtualClock } from '@toolshield/core/testing';
import { Tool, ToolCall, TOOLSHIELD_CLOCK } from '../../src/index.js';
import { useToolApp } from './fixtures/tool-app.js';

/**
 * A virtual clock on which the event loop can be blocked: time passes (now() moves on) while
 * no timer runs, as when synchronous work holds the thread past a timer's due time.
 */
class BusyClock extends VirtualClock {
  private blockedMs = 0;

  override now(): number {
    return super.now() + this.blockedMs;
  }

  block(ms: number): void {
    this.blockedMs += ms;
  }
}

@Injectable()
class BusyTools {
  readonly signals: AbortSignal[] = [];

  constructor(@Inject(TOOLSHIELD_CLOCK) private readonly clock: BusyClock) {}

  @Tool({ name: 'busy', description: 'Works 10 ms on the thread.', timeoutMs: 2, breaker: false })
  busy(@ToolCall() call: ToolCallContext) {
    this.signals.push(call.signal);
    this.clock.block(10);
    return Promise.resolve({ done: true });
  }

  @Tool({ name: 'busy_fails', description: 'Works 10 ms, then throws.', timeoutMs: 2 })
  busyFails() {
    this.clock.block(10);
    return Promise.reject(new Error('upstream said no'));
  }

  @Tool({ name: 'prompt', description: 'Works 1 ms.', timeoutMs: 2, breaker: false })
  prompt() {
    this.clock.block(1);
    return Promise.resolve({ done: true });
  }
}

describe('a result that arrives after its attempt deadline', () => {
  const app = useToolApp(BusyTools, {}, () => new BusyClock());
  const run = (name: string) =>
    app.ctx.executor.execute({ id: `call_${name}`, name, arguments: {} });

  it('is discarded when the clock has passed the deadline, even though no timer has fired yet', async () => {
    const outcome = await run('busy');
    expect(outcome).toMatchObject({ success: false, errorType: 'timeout', retryCount: 0 });
    expect(app.tools.signals[0]?.aborted).toBe(true);
    expect(app.events.filter((event) => event.type === 'call.failed')).toHaveLength(1);
    expect(app.events.some((event) => event.type === 'call.succeeded')).toBe(false);
  });

  it('turns a late error into the timeout too', async () => {
    expect(await run('busy_fails')).toMatchObject({ errorType: 'timeout' });
  });

  it('keeps a result that arrives before the deadline', async () => {
    expect(await run('prompt')).toMatchObject({ success: true, output: { done: true } });
  });
});
