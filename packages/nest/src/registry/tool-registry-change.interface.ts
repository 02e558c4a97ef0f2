/**
 * A change to the set of registered tools, as {@link ToolRegistry.changes$} reports it: a tool
 * was added (at bootstrap or at run time) or removed. MCP servers turn these into
 * `notifications/tools/list_changed`.
 *
 * @publicApi
 */
export interface ToolRegistryChange {
  readonly type: 'registered' | 'unregistered';
  /** The tool's name. */
  readonly name: string;
}
