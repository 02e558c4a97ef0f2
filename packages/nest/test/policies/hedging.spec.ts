import { describe, expect, it } from '@jest/globals';
import { HttpException, Inject, Injectable } from '@nestjs/common';
import {
  sleep,
  type Clock,
  type ToolCallContext,
  type ToolFailure,
  type ToolResult,
} from '@toolshield/core';
import { type ToolEvent } from '@toolshield/core/events';
import {
  TOOLSHIELD_CLOCK,
  Tool,
  ToolCall,
  ToolExecutor,
  ToolRateLimiters,
  type ToolOptions,
} from '../../src/index.js';
import { createToolApp } from '../fixtures/create-app.js';
import { settle } from './fixtures/drive.js';
import { useToolApp } from './fixtures/tool-app.js';

const hedgeable = { idempotent: true, annotations: { readOnlyHint: true } } as const;

/** An idempotent, read-only tool hedged after 100 ms (every call may hedge), with `options` over that. */
const HedgedTool = (description: string, options: Partial<ToolOptions> = {}) =>
  Tool({ description, ...hedgeable, hedging: { delayMs: 100, maxExtraShare: 1 }, ...options });

/** The upstream's 429, asking to wait `seconds` (to the ms: the pause is all of it). */
const tooManyRequests = (seconds: number) => {
  const headers = { 'retry-after-ms': String(seconds * 1000) };
  return new HttpException({ response: 'slow down', headers }, 429, { cause: { headers } });
};

/**
 * A pretend upstream whose n-th request (from 0) takes `durations[n]` ms, then answers 429
 * with `Retry-After: n + 1` (seconds) when n is in `refused`; records every request.
 */
@Injectable()
class PageTools {
  durations: number[] = [];
  refused = new Set<number>();
  readonly requests: { n: number; call: ToolCallContext }[] = [];

  constructor(@Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock) {}

  private async fetchPage(call: ToolCallContext) {
    const n = this.requests.length;
    this.requests.push({ n, call });
    await sleep(this.clock, this.durations[n] ?? 10, call.signal);
    if (this.refused.has(n)) throw tooManyRequests(n + 1);
    return { request: n };
  }

  @HedgedTool('Reads a page.')
  page(_args: unknown, @ToolCall() call: ToolCallContext) {
    return this.fetchPage(call);
  }

  @HedgedTool('Reads a page, hedging at most one call in ten.', {
    hedging: { delayMs: 100, maxExtraShare: 0.1 },
  })
  sparing(_args: unknown, @ToolCall() call: ToolCallContext) {
    return this.fetchPage(call);
  }

  @HedgedTool('Reads a page within 150 ms.', { timeoutMs: 150 })
  bounded(_args: unknown, @ToolCall() call: ToolCallContext) {
    return this.fetchPage(call);
  }

  @HedgedTool('Reads a page from a rate-limited upstream.', { rateLimit: { rate: 1, burst: 2 } })
  limited(_args: unknown, @ToolCall() call: ToolCallContext) {
    return this.fetchPage(call);
  }

  @HedgedTool('Reads a page from an upstream that announces its limit.', {
    rateLimit: { rate: 100, burst: 2, adaptive: true },
  })
  announced(_args: unknown, @ToolCall() call: ToolCallContext) {
    // Each request announces a different limit, as soon as it starts: 4 a second, then 5, ...
    const limit = this.requests.length + 4;
    call.reportUpstreamHeaders?.({ 'RateLimit-Policy': `"default";q=${limit};w=1` });
    return this.fetchPage(call);
  }

  @HedgedTool('Reads a page from an upstream that may answer 429.', {
    rateLimit: { rate: 10, burst: 5, adaptive: true },
  })
  refusing(_args: unknown, @ToolCall() call: ToolCallContext) {
    return this.fetchPage(call);
  }
}

const ofType = <T extends ToolEvent['type']>(events: ToolEvent[], type: T) =>
  events.filter((event): event is Extract<ToolEvent, { type: T }> => event.type === type);

describe('hedging through ToolExecutor', () => {
  const app = useToolApp(PageTools);
  const call = (name: string, id = 'c1') => app.ctx.executor.execute({ id, name, arguments: {} });

  it('starts a second attempt after the delay; the first to answer wins and the other is aborted', async () => {
    app.tools.durations = [1_000, 30];
    const pending = call('page');
    await app.ctx.clock.advanceBy(130);
    const outcome = (await pending) as ToolResult;
    expect(outcome).toMatchObject({
      success: true,
      output: { request: 1 },
      metadata: { attempts: 1, durationMs: 130, hedge: { afterMs: 100, won: true } },
    });
    const [first, second] = app.tools.requests.map((request) => request.call);
    expect(first?.signal.aborted).toBe(true);
    expect(first?.signal.reason).toMatchObject({ type: 'cancelled' });
    expect(second?.signal.aborted).toBe(false);
    expect(first?.callId).toBe('c1');
    expect(second?.attempt).toBe(1);
    expect(ofType(app.events, 'hedge.sent')).toEqual([
      expect.objectContaining({ callId: 'c1', tool: 'page', attempt: 1, delayMs: 100 }),
    ]);
    expect(ofType(app.events, 'hedge.won')).toHaveLength(1);
  });

  it('keeps the first answer when it comes before the hedge, and says a hedge was sent', async () => {
    app.tools.durations = [120, 1_000];
    const pending = call('page');
    await app.ctx.clock.advanceBy(120);
    expect(await pending).toMatchObject({
      output: { request: 0 },
      metadata: { hedge: { afterMs: 100, won: false } },
    });
    expect(app.tools.requests[1]?.call.signal.aborted).toBe(true);
    expect(ofType(app.events, 'hedge.won')).toHaveLength(0);
  });

  it('does not hedge a call that answers before the delay: no second request, no marker', async () => {
    app.tools.durations = [60];
    const pending = call('page');
    await app.ctx.clock.advanceBy(60);
    const outcome = (await pending) as ToolResult;
    expect(outcome.metadata).not.toHaveProperty('hedge');
    await app.ctx.clock.advanceBy(200);
    expect(app.tools.requests).toHaveLength(1);
  });

  it('keeps extra attempts within the share of calls', async () => {
    app.tools.durations = Array.from({ length: 40 }, () => 500);
    const calls = Array.from({ length: 20 }, (_, i) => call('sparing', `c${i}`));
    await app.ctx.clock.advanceBy(1_000);
    await Promise.all(calls);
    expect(ofType(app.events, 'hedge.sent')).toHaveLength(2);
    expect(app.tools.requests).toHaveLength(22);
  });

  it("applies the tool's timeout to both attempts together; a retry hedges again", async () => {
    app.tools.durations = [1_000, 1_000, 1_000, 1_000, 1_000, 1_000];
    const pending = call('bounded');
    await app.ctx.clock.advanceBy(150);
    expect(app.tools.requests.map((request) => request.call.signal.aborted)).toEqual([true, true]);
    expect(ofType(app.events, 'attempt.failed')).toEqual([
      expect.objectContaining({ attempt: 1, errorType: 'timeout' }),
    ]);
    const outcome = (await settle(app.ctx.clock, pending)) as ToolFailure;
    expect(outcome).toMatchObject({ success: false, errorType: 'timeout', retryCount: 2 });
    expect(ofType(app.events, 'hedge.sent').map((event) => event.attempt)).toEqual([1, 2, 3]);
  });

  it('sends a hedge only on a free turn of the rate limit', async () => {
    // 1 call a second, 2 at once: the first call and its hedge take both turns.
    app.tools.durations = [1_000, 10, 300];
    const first = call('limited', 'a');
    await app.ctx.clock.advanceBy(200);
    const second = call('limited', 'b');
    await app.ctx.clock.advanceBy(1_200);
    expect(await first).toMatchObject({ output: { request: 1 } });
    const outcome = (await second) as ToolResult;
    expect(outcome).toMatchObject({ success: true, output: { request: 2 } });
    expect(outcome.metadata).not.toHaveProperty('hedge');
    expect(ofType(app.events, 'hedge.sent')).toEqual([expect.objectContaining({ callId: 'a' })]);
    expect(app.tools.requests).toHaveLength(3);
  });

  it("passes on to the adaptive rate limit the headers of the attempt that won, not the loser's", async () => {
    app.tools.durations = [150, 1_000];
    const pending = call('announced');
    await app.ctx.clock.advanceBy(150);
    expect(await pending).toMatchObject({ output: { request: 0 } });
    // The winner (request 0) announced 4 a second; the hedge, which spoke later, 5.
    const [snapshot] = app.ctx.moduleRef.get(ToolRateLimiters).snapshots();
    expect(snapshot).toMatchObject({ key: 'announced', rate: 4 });
  });
});

describe("hedging and the adaptive rate limit: every attempt's answer counts once", () => {
  const app = useToolApp(PageTools);
  // Without retries: the attempts of one hedged run are what these specs look at.
  const call = (id = 'c1') =>
    app.ctx.executor.execute({ id, name: 'refusing', arguments: {} }, { retry: false });
  /** What the limiter did, as `rate_limit.changed` reasons with their times. */
  const changes = () =>
    ofType(app.events, 'rate_limit.changed').map(({ at, reason }) => `${at}: ${reason}`);
  const rate = () => app.ctx.moduleRef.get(ToolRateLimiters).snapshots()[0]?.rate;

  it('pauses for a 429 answered to the hedge while the first attempt goes on to win', async () => {
    app.tools.durations = [1_000, 10];
    app.tools.refused = new Set([1]);
    const pending = call();
    await app.ctx.clock.advanceBy(110);
    // The hedge (request 1) left at 100 and was refused at 110 with Retry-After: 2.
    expect(changes()).toEqual(['110: the upstream refused a call', '110: paused until 2110']);
    await app.ctx.clock.advanceBy(890);
    expect(await pending).toMatchObject({
      success: true,
      output: { request: 0 },
      metadata: { hedge: { afterMs: 100, won: false } },
    });
  });

  it("pauses for the first attempt's 429 when the hedge wins", async () => {
    app.tools.durations = [120, 50];
    app.tools.refused = new Set([0]);
    const pending = call();
    await app.ctx.clock.advanceBy(150);
    expect(await pending).toMatchObject({ success: true, output: { request: 1 } });
    // Then the hedge's success at 150 counts (the probe back up starts from the slowed rate).
    expect(changes()).toEqual([
      '120: the upstream refused a call',
      '120: paused until 1120',
      '150: probing',
    ]);
  });

  it('takes both refusals when both attempts are refused, each when it comes', async () => {
    app.tools.durations = [120, 50];
    app.tools.refused = new Set([0, 1]);
    const pending = call();
    await app.ctx.clock.advanceBy(150);
    expect(await pending).toMatchObject({ success: false, errorType: 'rate_limited' });
    // One slow-down per cooldown, one pause per Retry-After: request 0's, then request 1's.
    expect(changes()).toEqual([
      '120: the upstream refused a call',
      '120: paused until 1120',
      '150: paused until 2150',
    ]);
  });

  it('counts a success once, hedged or not (slow start adds ln 2 calls a second per success: doubling each second)', async () => {
    app.tools.durations = [50, 1_000, 10];
    await settle(app.ctx.clock, call('unhedged'));
    expect(rate()).toBeCloseTo(10 + Math.LN2);
    const hedged = call('hedged');
    await app.ctx.clock.advanceBy(110);
    expect(await hedged).toMatchObject({
      output: { request: 2 },
      metadata: { hedge: { won: true } },
    });
    expect(rate()).toBeCloseTo(10 + 2 * Math.LN2);
  });
});

describe('hedging and a tool that calls another tool', () => {
  @Injectable()
  class NestedTools {
    constructor(
      private readonly executor: ToolExecutor,
      @Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock,
    ) {}
    readonly seen: ToolCallContext[] = [];

    @HedgedTool('Reads a page and its summary.')
    async outer(_args: unknown, @ToolCall() call: ToolCallContext) {
      this.seen.push(call);
      await sleep(this.clock, this.seen.length === 1 ? 1_000 : 10, call.signal);
      return this.executor.execute({ id: `${call.callId}:inner`, name: 'inner', arguments: {} });
    }

    @Tool({ description: 'Summarises.' })
    inner(_args: unknown, @ToolCall() call: ToolCallContext) {
      this.seen.push(call);
      return { callId: call.callId, aborted: call.signal.aborted };
    }
  }

  it("gives the inner call its own context, not the hedged attempt's", async () => {
    const app = await createToolApp([NestedTools]);
    const pending = app.executor.execute({ id: 'c1', name: 'outer', arguments: {} });
    await app.clock.advanceBy(110);
    expect(await pending).toMatchObject({
      success: true,
      output: { success: true, output: { callId: 'c1:inner', aborted: false } },
    });
    const { seen } = app.moduleRef.get(NestedTools);
    expect(seen.map((call) => call.callId)).toEqual(['c1', 'c1', 'c1:inner']);
    await app.close();
  });
});

describe('hedging options', () => {
  it('refuses at startup a hedged tool that is not idempotent and read-only, naming the option', async () => {
    @Injectable()
    class OrderTools {
      @Tool({ description: 'Places an order.', idempotent: true, hedging: { delayMs: 50 } })
      placeOrder() {
        return 'placed';
      }
    }
    await expect(createToolApp([OrderTools])).rejects.toThrow(
      'Invalid tool options: @Tool(placeOrder).hedging must be absent unless the tool is idempotent and read-only (idempotent: true and annotations.readOnlyHint: true)',
    );
  });

  it("hedges by the module's default only the tools that may be hedged; false opts out", async () => {
    @Injectable()
    class MixedTools {
      constructor(@Inject(TOOLSHIELD_CLOCK) private readonly clock: Clock) {}
      requests: string[] = [];
      private async slow(name: string, call: ToolCallContext) {
        this.requests.push(name);
        await sleep(this.clock, 500, call.signal);
        return name;
      }
      @Tool({ description: 'Reads.', ...hedgeable })
      read(_args: unknown, @ToolCall() call: ToolCallContext) {
        return this.slow('read', call);
      }
      @Tool({ description: 'Writes.', idempotent: true })
      write(_args: unknown, @ToolCall() call: ToolCallContext) {
        return this.slow('write', call);
      }
      @Tool({ description: 'Reads, unhedged.', ...hedgeable, hedging: false })
      plain(_args: unknown, @ToolCall() call: ToolCallContext) {
        return this.slow('plain', call);
      }
    }
    const app = await createToolApp([MixedTools], {
      defaults: { hedging: { delayMs: 100, maxExtraShare: 1 } },
    });
    const calls = ['read', 'write', 'plain'].map((name) =>
      app.executor.execute({ id: name, name, arguments: {} }),
    );
    await app.clock.advanceBy(600);
    await Promise.all(calls);
    const { requests } = app.moduleRef.get(MixedTools);
    expect(requests.sort()).toEqual(['plain', 'read', 'read', 'write']);
    await app.close();
    expect(app.clock.pendingTimers).toBe(0);
  });
});
