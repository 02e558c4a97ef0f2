import { Injectable } from '@nestjs/common';
import type { ToolDefinition } from '@toolshield/core';
import { Subject, type Observable } from 'rxjs';
import { DUPLICATE_TOOL_NAME } from '../toolshield.messages.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import type { ToolRegistryChange } from './tool-registry-change.interface.js';

/**
 * Every tool of the application, by name. Filled at bootstrap by discovery and by
 * `ToolRegistrar`, which can also add and remove tools at run time; read on every call.
 *
 * @publicApi
 */
@Injectable()
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly changes = new Subject<ToolRegistryChange>();
  /** Every tool added or removed from now on (synchronously, as it happens). */
  readonly changes$: Observable<ToolRegistryChange> = this.changes.asObservable();

  /**
   * Adds a tool; a second tool with the same name is an error. To add tools of your own, use
   * `ToolRegistrar`, which builds their pipeline.
   */
  register(tool: RegisteredTool): void {
    const existing = this.tools.get(tool.name);
    if (existing) throw new Error(DUPLICATE_TOOL_NAME(tool.name, existing.source, tool.source));
    this.tools.set(tool.name, tool);
    this.changes.next({ type: 'registered', name: tool.name });
  }

  /**
   * Removes the tool of this name (calls already running finish; later calls get
   * `tool_not_found`). Only `tool`, when given, is removed: a newer tool registered under the
   * same name stays.
   *
   * @returns whether a tool was removed.
   */
  unregister(name: string, tool?: RegisteredTool): boolean {
    const existing = this.tools.get(name);
    if (!existing || (tool !== undefined && existing !== tool)) return false;
    this.tools.delete(name);
    this.changes.next({ type: 'unregistered', name });
    return true;
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
