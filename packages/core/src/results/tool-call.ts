/**
 * A tool call as a model emits it.
 *
 * @publicApi
 */
export interface ToolCallRequest {
  /** The provider's call id (`call_...`, `toolu_...`). One is generated when missing. */
  readonly id?: string;
  /** The tool name the model asked for. */
  readonly name: string;
  /** The model's JSON argument string, or an already parsed object. */
  readonly arguments?: string | Readonly<Record<string, unknown>> | null;
}
