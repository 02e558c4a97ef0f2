import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
  UnprocessableEntityException,
} from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { IdempotencyKeyReusedError } from '../runs/idempotency.js';
import { IdempotentRunStarter } from '../runs/idempotent-run-starter.js';
import { RunEventHub } from '../runs/run-event-hub.js';
import { isRunFinished, type RunEvent } from '../runs/run-event.js';
import { parseRunPage, runCursorAfter } from '../runs/run-page.js';
import type { RunRecord } from '../runs/run-record.js';
import { RUN_STORE, type RunStore } from '../runs/run-store.js';
import { summariseToolCalls } from '../runs/tool-call-summary.js';

/** How often an idle event stream gets a comment, so proxies keep it open. */
const KEEP_ALIVE_MS = 15_000;

function afterSeq(lastEventId: string | undefined, after: string | undefined): number {
  const value = Number(lastEventId ?? after ?? 0);
  return Number.isInteger(value) && value > 0 ? value : 0;
}

/** The runs API: start runs, read them, follow their events live. */
@Controller('api/runs')
export class RunsController {
  constructor(
    private readonly starter: IdempotentRunStarter,
    private readonly hub: RunEventHub,
    @Inject(RUN_STORE) private readonly store: RunStore,
  ) {}

  /**
   * Starts a run in the background: `201 { id, status }`. With an `Idempotency-Key`, a retry
   * gets the same run (`Idempotent-Replayed: true`); the key with another request, 422.
   */
  @Post()
  @HttpCode(201)
  async start(
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) response: ServerResponse,
  ): Promise<Pick<RunRecord, 'id' | 'status'>> {
    const request = (typeof body === 'object' && body !== null ? body : {}) as {
      task?: unknown;
      scenario?: unknown;
    };
    try {
      const { run, replayed } = await this.starter.start(
        { task: request.task as string, scenario: request.scenario as string | undefined },
        key,
      );
      if (replayed) response.setHeader('idempotent-replayed', 'true');
      return { id: run.id, status: run.status };
    } catch (error) {
      if (error instanceof IdempotencyKeyReusedError) {
        throw new UnprocessableEntityException(error.message);
      }
      throw error;
    }
  }

  /**
   * The runs, newest first, `?limit=` (1-100, default 100) at a time; a full page links to
   * the next (`Link: <…?cursor=…>; rel="next"`).
   */
  @Get()
  async list(
    @Query('limit') limit: unknown,
    @Query('cursor') cursor: unknown,
    @Res({ passthrough: true }) response: ServerResponse,
  ): Promise<RunRecord[]> {
    const page = parseRunPage(limit, cursor);
    const runs = await this.store.listRuns(page.limit, page.after);
    const last = runs.at(-1);
    if (last && runs.length === page.limit) {
      const next = new URLSearchParams({ limit: String(page.limit), cursor: runCursorAfter(last) });
      response.setHeader('link', `</api/runs?${next.toString()}>; rel="next"`);
    }
    return runs;
  }

  /** A run with its messages, its tool calls and their outcomes. */
  @Get(':id')
  async get(@Param('id') id: string) {
    const run = await this.findRun(id);
    const [messages, events] = await Promise.all([this.store.load(id), this.store.events(id)]);
    return { ...run, messages: messages ?? [], toolCalls: summariseToolCalls(events, messages) };
  }

  /**
   * The run's events as Server-Sent Events: each one `id: <seq>` and a JSON `data:` line.
   * Past events first (after `Last-Event-ID`, or `?after=`), then live ones; the stream ends
   * after `run.finished`.
   */
  @Get(':id/events')
  async events(
    @Param('id') id: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Query('after') after: string | undefined,
    @Req() request: IncomingMessage,
    @Res() response: ServerResponse,
  ): Promise<void> {
    await this.findRun(id);
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.flushHeaders();
    const stream = { ended: false, unsubscribe: () => undefined as unknown };
    const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    const end = () => {
      if (stream.ended) return;
      stream.ended = true;
      clearInterval(keepAlive);
      stream.unsubscribe();
      response.end();
    };
    const send = (event: RunEvent) => {
      if (stream.ended) return;
      response.write(`id: ${event.seq}\ndata: ${JSON.stringify(event)}\n\n`);
      if (isRunFinished(event)) end();
    };
    request.on('close', end);
    stream.unsubscribe = await this.hub.subscribe(id, afterSeq(lastEventId, after), send);
    if (stream.ended) stream.unsubscribe();
    // A run that is not live has nothing more to say (finished, or never resumed).
    if (!this.hub.isLive(id)) end();
  }

  private async findRun(id: string): Promise<RunRecord> {
    const run = await this.store.getRun(id);
    if (!run) throw new NotFoundException(`No run ${JSON.stringify(id)}.`);
    return run;
  }
}
