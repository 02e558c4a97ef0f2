import { Inject } from '@nestjs/common';
import { TOOLSHIELD_MCP_OPTIONS } from './toolshield-mcp.module-definition.js';

/** Injects the {@link ToolShieldMcpModuleOptions}. @internal */
export const InjectToolShieldMcpOptions = (): ParameterDecorator => Inject(TOOLSHIELD_MCP_OPTIONS);
