import { Inject } from '@nestjs/common';
import { TOOLSHIELD_MCP_OPTIONS } from './toolshield-mcp-options.token.js';

/** Injects the {@link ToolShieldMcpModuleOptions}. @internal */
export const InjectToolShieldMcpOptions = (): ParameterDecorator => Inject(TOOLSHIELD_MCP_OPTIONS);
