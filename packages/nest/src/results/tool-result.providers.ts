import type { Provider } from '@nestjs/common';
import { CacheLayer } from './cache.layer.js';
import { OutputLayer } from './output.layer.js';
import { ReadToolOutputTool } from './read-tool-output.tool.js';
import { ToolOutputHandles } from './tool-output-handles.js';
import { ToolResultLayers } from './tool-result-layers.js';

/** The providers of output budgets, the result cache and the read-more tool. @internal */
export const TOOL_RESULT_PROVIDERS: readonly Provider[] = [
  ToolOutputHandles,
  OutputLayer,
  CacheLayer,
  ToolResultLayers,
  ReadToolOutputTool,
];
