import type { ToolCallContext } from '../results/tool-call.js';

/**
 * Whether a tool's calls need a person's approval before they run: `true` for every call, or a
 * function of the call's validated arguments (and its context) for some of them.
 *
 * @example
 * needsApproval: (args: PayInvoiceArgs) => args.amount > 1_000
 * @publicApi
 */
export type ToolApprovalPolicy<TArgs = never> =
  boolean | ((args: TArgs, call: ToolCallContext) => boolean | Promise<boolean>);

/** What an adapter knows of a call when it asks a tool's policy, before toolshield runs it. */
export interface ApprovalQuestion {
  readonly callId: string;
  readonly toolName: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

const NEVER_ABORTED = new AbortController().signal;

/**
 * Asks `policy` whether a call needs approval, for a framework's own pause (AI SDK and Agents
 * SDK `needsApproval`, LangChain's interrupt, MCP elicitation). The arguments are the model's,
 * not yet validated: a policy that throws on them, or answers anything but `false`, asks (the
 * gate asks again, with validated arguments, when the call runs unapproved).
 *
 * @internal
 */
export async function askApprovalPolicy(
  policy: ToolApprovalPolicy<unknown> | undefined,
  args: unknown,
  question: ApprovalQuestion,
): Promise<boolean> {
  if (policy === undefined || policy === false) return false;
  if (policy === true) return true;
  try {
    const call: ToolCallContext = {
      callId: question.callId,
      toolName: question.toolName,
      attempt: 1,
      signal: NEVER_ABORTED,
      metadata: question.metadata ?? {},
    };
    return (await policy(args, call)) !== false;
  } catch {
    return true;
  }
}

/** The approval policy of a catalog's tool, when its registry tells (`needsApproval`). @internal */
export function approvalPolicyOf(
  registry: {
    get?(
      name: string,
    ): { readonly options: { readonly needsApproval?: ToolApprovalPolicy } } | undefined;
  },
  name: string,
): ToolApprovalPolicy<unknown> | undefined {
  const policy = registry.get?.(name)?.options.needsApproval;
  return policy === false ? undefined : (policy as ToolApprovalPolicy<unknown> | undefined);
}
