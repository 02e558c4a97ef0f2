import type { ToolApprovalPolicy } from '../approvals/approval-policy.js';
import type { ToolDefinition } from '../rendering/tool-definition.js';
import type { ToolCallRequest } from '../results/tool-call.js';
import type { ToolOutcome } from '../results/tool-outcome.js';

/**
 * The tools a framework adapter exposes: their definitions and what runs a call to its
 * outcome. `{ registry: app.get(ToolRegistry), executor: app.get(ToolExecutor) }` from
 * `@toolshield/nest` fits as it is.
 *
 * @publicApi
 */
export interface ToolCatalog {
  readonly registry: {
    definitions(): readonly ToolDefinition[];
    /** A tool's options, where adapters read `needsApproval` (Nest's `ToolRegistry.get` fits). */
    get?(
      name: string,
    ): { readonly options: { readonly needsApproval?: ToolApprovalPolicy } } | undefined;
  };
  readonly executor: {
    /** Must never reject: every call ends in a `ToolResult` or a `ToolFailure`. */
    execute(
      call: ToolCallRequest,
      options?: {
        readonly signal?: AbortSignal;
        readonly metadata?: Readonly<Record<string, unknown>>;
        /** The framework's conversation (thread, session): idempotency keys are scoped by it. */
        readonly conversationId?: string;
        /** A person approved the call in the framework's own pause: toolshield does not ask again. */
        readonly approved?: { readonly by?: string; readonly reason?: string };
      },
    ): Promise<ToolOutcome>;
  };
}

/** Which of a catalog's tools an adapter exposes, and what every call carries. @publicApi */
export interface ToolCatalogOptions {
  /** Only these tools, by name (default: every tool of the catalog). */
  readonly only?: readonly string[];
  /** Handed to every call as `ToolCallContext.metadata` (conversation id, tenant, ...). */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** The definitions of the tools an adapter exposes: all of them, or the `only` ones. @publicApi */
export function catalogDefinitions(
  catalog: ToolCatalog,
  options: ToolCatalogOptions = {},
): readonly ToolDefinition[] {
  const { only } = options;
  const definitions = catalog.registry.definitions();
  return only === undefined
    ? definitions
    : definitions.filter((definition) => only.includes(definition.name));
}
