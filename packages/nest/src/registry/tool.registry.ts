import { Injectable } from '@nestjs/common';
import type { ToolDefinition } from '@toolshield/core';
import { DUPLICATE_TOOL_NAME } from '../toolshield.messages.js';
import type { RegisteredTool } from './registered-tool.interface.js';

/**
 * Every tool of the application, by name. Filled once at bootstrap by discovery; read on
 * every call.
 *
 * @publicApi
 */
@Injectable()
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();

  /** Adds a tool; a second tool with the same name is a startup error. */
  register(tool: RegisteredTool): void {
    const existing = this.tools.get(tool.name);
    if (existing) throw new Error(DUPLICATE_TOOL_NAME(tool.name, existing.source, tool.source));
    this.tools.set(tool.name, tool);
  }

  /** The tool registered under exactly this name. */
  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  /** The registered names, in registration order. */
  names(): string[] {
    return [...this.tools.keys()];
  }

  /** The definitions to send to the model (render them with `toOpenAIFunctionTool` and friends). */
  definitions(): ToolDefinition[] {
    return [...this.tools.values()].map((tool) => tool.definition);
  }

  /** Empties the registry (the application is closing). */
  clear(): void {
    this.tools.clear();
  }
}
