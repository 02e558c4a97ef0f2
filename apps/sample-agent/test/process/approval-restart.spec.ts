import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { startFixtureUpstream, type FixtureUpstream } from '../../src/upstream/fixture-upstream.js';
import { decide, finishedRun, startRun, untilAwaitingApproval } from '../fixtures/approvals.js';
import { buildApp, startServerProcess, type ServerProcess } from '../fixtures/server-process.js';
import { freshSqliteDirectory } from '../fixtures/stores.js';

jest.setTimeout(90_000);

// A run that waits for approval holds nothing in the process: a restart (here SIGKILL, the
// worst kind) loses nothing, and the decision posted to the next process resumes it there.
describe('a restart while a run waits for approval, one instance (SQLite)', () => {
  let upstream: FixtureUpstream;
  const servers: ServerProcess[] = [];
  let dir: ReturnType<typeof freshSqliteDirectory>;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    buildApp();
    dir = freshSqliteDirectory();
    upstream = await startFixtureUpstream();
    env = {
      TOOLSHIELD_DATA_DIR: dir.dir,
      DATABASE_URL: undefined,
      REDIS_URL: undefined,
      TOOLSHIELD_STORE: undefined,
      UPSTREAM_URL: upstream.url,
      PAYMENT_APPROVAL_ABOVE: undefined,
    };
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    await upstream?.close();
    await dir?.drop();
  });

  it('keeps the waiting run and its approval; approved after the restart, it pays once and completes', async () => {
    const first = await startServerProcess(env);
    servers.push(first);
    const id = await startRun(first.baseUrl);
    const { waiting, approvalId } = await untilAwaitingApproval(first.baseUrl, id);
    await first.stop('SIGKILL');

    const second = await startServerProcess(env);
    servers.push(second);
    const listed = (await (await fetch(`${second.baseUrl}/api/approvals`)).json()) as {
      id: string;
    }[];
    expect(listed.map((approval) => approval.id)).toEqual([approvalId]);
    expect(
      ((await (await fetch(`${second.baseUrl}/api/runs/${id}`)).json()) as { status: string })
        .status,
    ).toBe('awaiting_approval');
    expect(await decide(second.baseUrl, approvalId, { decision: 'approve' })).toMatchObject({
      status: 200,
    });

    const { run, events } = await finishedRun(second.baseUrl, id, waiting.seq);
    expect(events.map((event) => event.data.type)).toContain('approval.approved');
    expect(run.status).toBe('completed');
    const paid = upstream.payments.filter((payment) =>
      payment.idempotencyKey?.startsWith(`${id}:`),
    );
    expect(paid).toHaveLength(1);
    expect(run.finalAnswer).toContain(`Paid INV-2048 (${paid[0]?.id})`);
  });
});
