import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolApprovalRef, ToolFailure, ToolOutcome } from '@toolshield/core';
import type { ToolExecutor } from '@toolshield/nest';

/** A failure that waits for a person: `approval_pending` with its approval. */
type PendingOutcome = ToolFailure & { readonly approval: ToolApprovalRef };

/** Whether an outcome waits for a person's approval. @internal */
export function isPendingApproval(outcome: ToolOutcome): outcome is PendingOutcome {
  return !outcome.success && outcome.errorType === 'approval_pending' && !!outcome.approval;
}

/** What the person deciding may add: a reason (a refusal's is what the model reads). */
const REASON_FORM = {
  type: 'object' as const,
  properties: {
    reason: {
      type: 'string' as const,
      title: 'Reason',
      description: 'Why (optional). The model reads the reason of a refusal.',
    },
  },
};

/**
 * Asks the MCP client's user, through elicitation, whether a waiting call may run, and decides
 * its approval with the answer: accepted, the call runs once (`resolveApproval`); declined, it
 * ends in the denial the model reads. A client without form elicitation, a dismissed form, or a
 * decision someone else took first leaves the call waiting (`undefined`).
 *
 * @internal
 */
export async function askClientToApprove(
  server: Server,
  executor: ToolExecutor,
  pending: PendingOutcome,
  options: RequestOptions,
): Promise<ToolOutcome | undefined> {
  if (server.getClientCapabilities()?.elicitation === undefined) return undefined;
  const { approval } = pending;
  try {
    const answer = await server.elicitInput(
      {
        message: `Allow ${pending.tool} with ${JSON.stringify(approval.args)}? It runs once when you accept.`,
        requestedSchema: REASON_FORM,
      },
      options,
    );
    if (answer.action === 'cancel') return undefined;
    const reason =
      typeof answer.content?.['reason'] === 'string' ? answer.content['reason'] : undefined;
    return await executor.resolveApproval(approval.id, {
      approved: answer.action === 'accept',
      by: 'MCP client',
      ...(reason === undefined || reason === '' ? {} : { reason }),
    });
  } catch {
    return undefined;
  }
}

/** Adds to a waiting call's result how its approval is resolved. @internal */
export function withResolutionHint(
  result: CallToolResult,
  pending: PendingOutcome,
): CallToolResult {
  const { id } = pending.approval;
  return {
    ...result,
    content: [
      ...result.content,
      {
        type: 'text',
        text: `Approval ${id} is pending. A person resolves it where this server's approvals are decided (ToolExecutor.resolveApproval('${id}', { approved })); the call then runs once on the server, and this request does not receive its result.`,
      },
    ],
  };
}
