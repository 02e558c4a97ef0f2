import { describe, expect, it } from '@jest/globals';
import { RateLimitedError } from '../errors/rate-limited.error.js';
import { createToolFailure } from '../results/create-tool-failure.js';
import { createToolResult } from '../results/create-tool-result.js';
import { toAnthropicTool, toAnthropicToolResult } from './anthropic.js';
import { toMcpCallToolResult, toMcpTool } from './mcp.js';
import { toOpenAIFunctionTool, toOpenAIToolMessage } from './openai.js';
import { renderFailureText } from './render-failure-text.js';
import { renderOutcomeJson } from './outcome-content.js';
import type { ToolDefinition } from './tool-definition.js';

const ctx = { tool: 'get_weather', callId: 'toolu_01A', durationMs: 42 };
const result = createToolResult({ city: 'Paris', tempC: 21 }, ctx);
const textResult = createToolResult('21°C and sunny', ctx);
const failure = createToolFailure(
  new RateLimitedError('Too many requests', { retryAfterMs: 2000 }),
  ctx,
);

const definition: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  inputSchema: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  annotations: { title: 'Weather', readOnlyHint: true, idempotentHint: true, openWorldHint: true },
};

describe('renderOutcomeJson', () => {
  it('renders the whole payload, and never throws', () => {
    expect(JSON.parse(renderOutcomeJson(failure))).toEqual(failure);
    expect(renderOutcomeJson(result, 2)).toContain('\n  "success": true');
    const odd = createToolResult({ big: 1n }, ctx);
    expect(JSON.parse(renderOutcomeJson(odd))).toMatchObject({ output: { big: '1' } });
  });
});

describe('OpenAI', () => {
  it('answers a tool call with a tool message', () => {
    expect(toOpenAIToolMessage(result)).toEqual({
      role: 'tool',
      tool_call_id: 'toolu_01A',
      content: '{"city":"Paris","tempC":21}',
    });
    expect(toOpenAIToolMessage(textResult).content).toBe('21°C and sunny');
    expect(toOpenAIToolMessage(failure).content).toBe(renderFailureText(failure));
    expect(JSON.parse(toOpenAIToolMessage(failure, { failureFormat: 'json' }).content)).toEqual(
      failure,
    );
  });

  it('exports a function tool', () => {
    expect(toOpenAIFunctionTool(definition)).toEqual({
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Current weather for a city.',
        parameters: definition.inputSchema,
      },
    });
  });
});

describe('Anthropic', () => {
  it('answers a tool_use with a tool_result block, is_error only on failures', () => {
    expect(toAnthropicToolResult(result)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_01A',
      content: '{"city":"Paris","tempC":21}',
    });
    expect(toAnthropicToolResult(failure)).toEqual({
      type: 'tool_result',
      tool_use_id: 'toolu_01A',
      content: renderFailureText(failure),
      is_error: true,
    });
  });

  it('exports a tool with input_schema', () => {
    expect(toAnthropicTool(definition)).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city.',
      input_schema: definition.inputSchema,
    });
  });
});

describe('MCP', () => {
  it('returns a CallToolResult with isError, and structuredContent for object outputs', () => {
    expect(toMcpCallToolResult(result)).toEqual({
      content: [{ type: 'text', text: '{"city":"Paris","tempC":21}' }],
      isError: false,
      structuredContent: { city: 'Paris', tempC: 21 },
    });
    expect(toMcpCallToolResult(textResult)).toEqual({
      content: [{ type: 'text', text: '21°C and sunny' }],
      isError: false,
    });
    expect(toMcpCallToolResult(createToolResult([1, 2], ctx))).not.toHaveProperty(
      'structuredContent',
    );
    expect(toMcpCallToolResult(failure)).toEqual({
      content: [{ type: 'text', text: renderFailureText(failure) }],
      isError: true,
    });
  });

  it('exports a tool with inputSchema and annotations', () => {
    expect(toMcpTool(definition)).toEqual({
      name: 'get_weather',
      description: 'Current weather for a city.',
      inputSchema: definition.inputSchema,
      annotations: {
        title: 'Weather',
        readOnlyHint: true,
        idempotentHint: true,
        openWorldHint: true,
      },
    });
    const { annotations: _omitted, ...bare } = definition;
    expect(toMcpTool(bare)).not.toHaveProperty('annotations');
  });

  it('renders a void output as JSON null', () => {
    expect(toMcpCallToolResult(createToolResult(undefined, ctx)).content[0].text).toBe('null');
  });
});
