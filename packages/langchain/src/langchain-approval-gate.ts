import type { ToolApprovalPolicy, ToolCatalog } from '@toolshield/core';
import { approvalPolicyOf, askApprovalPolicy } from '@toolshield/core/internal';

/** Where a toolshield LangChain tool keeps what its approval pause needs. */
export const LANGCHAIN_APPROVAL = Symbol('toolshield.langchainApproval');

/**
 * A tool's approval policy and the calls the human-in-the-loop middleware stopped for: a call
 * it stopped for runs only once a person approved (or edited) it, so the executor is told not
 * to ask again.
 *
 * @internal
 */
export class LangChainApprovalGate {
  private readonly asked = new Set<string>();

  private constructor(
    readonly toolName: string,
    private readonly policy: ToolApprovalPolicy<unknown>,
    private readonly metadata: Readonly<Record<string, unknown>> | undefined,
  ) {}

  /** The gate of a catalog's tool with `needsApproval`; `undefined` for the others. */
  static of(
    catalog: ToolCatalog,
    toolName: string,
    metadata?: Readonly<Record<string, unknown>>,
  ): LangChainApprovalGate | undefined {
    const policy = approvalPolicyOf(catalog.registry, toolName);
    return policy === undefined ? undefined : new LangChainApprovalGate(toolName, policy, metadata);
  }

  /** The middleware's `when`: whether this call stops for a person (remembered if it does). */
  async interrupts(call: { readonly id?: string; readonly args: unknown }): Promise<boolean> {
    const asks = await askApprovalPolicy(this.policy, call.args, {
      callId: call.id ?? '',
      toolName: this.toolName,
      metadata: this.metadata,
    });
    if (asks && call.id !== undefined) this.asked.add(call.id);
    return asks;
  }

  /** Whether the call running now is one the middleware stopped for (a person let it through). */
  approvedByPerson(toolCallId: string | undefined): boolean {
    return toolCallId !== undefined && this.asked.delete(toolCallId);
  }
}
