import { describe, expect, it } from '@jest/globals';
import {
  CallToolResultSchema,
  ToolSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { createToolResult, NotFoundError } from '@toolshield/core';
import { createToolFailure } from '@toolshield/core/internal';
import type { RegisteredTool } from '@toolshield/nest';
import { callToolResult, listedTool } from './mcp-tool-rendering.js';

const tool = {
  name: 'get_weather',
  options: { description: 'Weather.', idempotent: true, annotations: { readOnlyHint: true } },
  definition: {
    name: 'get_weather',
    description: 'Weather.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
} as unknown as RegisteredTool;

describe('what the server hands to the SDK', () => {
  it('lists a tool as an SDK Tool, annotations derived from its options', () => {
    const listed: Tool = listedTool(tool);
    expect(ToolSchema.parse(listed)).toEqual(listed);
    expect(listed.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
  });

  it('answers with SDK CallToolResults: outputs as structured content, failures with the ToolFailure', () => {
    const context = { tool: 'get_weather', callId: 'c1', durationMs: 3 };
    const ok: CallToolResult = callToolResult(createToolResult({ celsius: 21 }, context), {});
    expect(CallToolResultSchema.parse(ok)).toEqual(ok);
    expect(ok).toMatchObject({ isError: false, structuredContent: { celsius: 21 } });

    const failure = createToolFailure(new NotFoundError('No such city.'), context);
    const failed: CallToolResult = callToolResult(failure, { failureFormat: 'json' });
    expect(CallToolResultSchema.parse(failed)).toEqual(failed);
    expect(failed.structuredContent).toEqual({ ...failure });
    expect(JSON.parse((failed.content[0] as { text: string }).text)).toMatchObject({
      errorType: 'not_found',
    });
  });
});
