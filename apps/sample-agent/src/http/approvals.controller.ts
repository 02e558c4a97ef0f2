import {
  Body,
  ConflictException,
  Controller,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import { ApprovalNotPendingError } from '@toolshield/core/approvals';
import { AgentRunsService } from '../runs/agent-runs.service.js';
import {
  approvalView,
  listApprovals,
  parseApprovalAnswer,
  parseStatusFilter,
  type ApprovalView,
} from '../runs/approval-view.js';
import { RUN_STORE, type RunStore } from '../runs/run-store.js';

/**
 * The calls waiting for a person, and their decisions. A decision is stored in the run
 * database in one atomic step (the first one wins, before the approval expires), then the run
 * resumes on whichever instance takes it: the approved call is made there, once.
 */
@Controller('api/approvals')
export class ApprovalsController {
  constructor(
    private readonly runs: AgentRunsService,
    @Inject(RUN_STORE) private readonly store: RunStore,
  ) {}

  /** `?status=` `pending` (default), `approved`, `denied`, `expired` or `all`; `?runId=` one run's. */
  @Get()
  list(@Query('status') status: unknown, @Query('runId') runId: unknown): Promise<ApprovalView[]> {
    return listApprovals(
      this.store.approvals,
      parseStatusFilter(status),
      typeof runId === 'string' && runId !== '' ? runId : undefined,
      Date.now(),
    );
  }

  /** One approval, pending or settled. */
  @Get(':id')
  async get(@Param('id') id: string): Promise<ApprovalView> {
    const record = await this.store.approvals.get(id);
    if (!record) throw new NotFoundException(`No approval ${JSON.stringify(id)}.`);
    return approvalView(record, Date.now());
  }

  /**
   * `{ "decision": "approve" | "deny", "reason"? }`: `200` with the settled approval; `404`
   * for an unknown id; `409` when it was decided already or expired (the message says which,
   * by whom and when); `400` for a bad body.
   */
  @Post(':id')
  @HttpCode(200)
  async decide(@Param('id') id: string, @Body() body: unknown): Promise<ApprovalView> {
    const answer = parseApprovalAnswer(body);
    const now = Date.now();
    const { record, won } = await this.store.approvals.decide(
      id,
      {
        status: answer.approved ? 'approved' : 'denied',
        at: now,
        ...(answer.reason === undefined ? {} : { reason: answer.reason }),
        ...(answer.by === undefined ? {} : { by: answer.by }),
      },
      now,
    );
    if (!record) throw new NotFoundException(`No approval ${JSON.stringify(id)}.`);
    if (!won) throw new ConflictException(new ApprovalNotPendingError(id, record, now).message);
    if (record.conversationId !== undefined) await this.runs.wakeIfDecided(record.conversationId);
    return approvalView(record, now);
  }
}
