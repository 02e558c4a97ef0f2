/**
 * A JSON Schema describing an object (tool arguments must be one). Its arrays are mutable and
 * its property schemas objects, as the official SDKs' parameter types (OpenAI
 * `FunctionParameters`, Anthropic `Tool.InputSchema`, MCP `Tool.inputSchema`) want them, so a
 * schema passes between toolshield and those SDKs both ways without a cast.
 *
 * @publicApi
 */
export interface JsonObjectSchema {
  readonly type: 'object';
  readonly properties?: Readonly<Record<string, object>>;
  readonly required?: string[];
  readonly additionalProperties?: boolean | Readonly<Record<string, unknown>>;
  readonly [keyword: string]: unknown;
}

/**
 * MCP tool annotations: hints about a tool's behaviour, never guarantees.
 *
 * @publicApi
 */
export interface ToolAnnotations {
  /** A human-readable title. */
  readonly title?: string;
  /** The tool does not modify its environment. */
  readonly readOnlyHint?: boolean;
  /** The tool may perform destructive updates (meaningful when not read-only). */
  readonly destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect (safe to retry). */
  readonly idempotentHint?: boolean;
  /** The tool talks to an open world of external entities (the web, ...). */
  readonly openWorldHint?: boolean;
}

/**
 * A tool as models see it, in provider-neutral form; export it with `toOpenAIFunctionTool`,
 * `toAnthropicTool` or `toMcpTool`.
 *
 * @publicApi
 */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObjectSchema;
  readonly annotations?: ToolAnnotations;
}
