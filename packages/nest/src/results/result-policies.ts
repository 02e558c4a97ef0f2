import { DEFAULT_OUTPUT_BUDGET, type OutputBudget } from '@toolshield/core';
import type { ToolOptions } from '../interfaces/tool-options.interface.js';
import type { ToolOutputOption } from './tool-result-options.interface.js';

/**
 * A tool's output budget: its own (`output: false` for none), else the module's
 * `defaults.output`, else {@link DEFAULT_OUTPUT_BUDGET}. @internal
 */
export function resolveOutputBudget(
  tool: ToolOptions,
  moduleDefault: ToolOutputOption | undefined,
): OutputBudget | undefined {
  const budget = tool.output ?? moduleDefault ?? DEFAULT_OUTPUT_BUDGET;
  return budget === false ? undefined : budget;
}
