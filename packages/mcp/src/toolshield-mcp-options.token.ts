/** Injection token of the {@link ToolShieldMcpModuleOptions}. @publicApi */
export const TOOLSHIELD_MCP_OPTIONS: unique symbol = Symbol('ToolShieldMcpModuleOptions');
