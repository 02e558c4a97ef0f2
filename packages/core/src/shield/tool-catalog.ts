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
  readonly registry: { definitions(): readonly ToolDefinition[] };
  readonly executor: {
    /** Must never reject: every call ends in a `ToolResult` or a `ToolFailure`. */
    execute(
      call: ToolCallRequest,
      options?: {
        readonly signal?: AbortSignal;
        readonly metadata?: Readonly<Record<string, unknown>>;
      },
    ): Promise<ToolOutcome>;
  };
}
