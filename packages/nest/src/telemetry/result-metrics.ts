import type { Meter } from '@opentelemetry/api';
import type { ToolResult } from '@toolshield/core';
import type { ToolEvent } from '@toolshield/core/events';
import type { CacheMetadata } from '../results/cache.layer.js';
import { ToolShieldAttributes as A, ToolShieldMetrics as M } from './telemetry.constants.js';
import { TalliedCounter } from './tallied-counter.js';
import type { ToolNameLabel } from './tool-name-label.js';

/**
 * Metrics of the result layers, from each answered call's metadata: cache lookups by result
 * (`hit`, `miss`, `joined` for single-flight joins, `stale` for stale answers) and outputs cut
 * to their budget. A miss or join whose call then failed is counted with the failed calls of
 * `toolshield.tool.calls`, not here.
 */
export class ResultMetrics {
  private readonly lookups: TalliedCounter;
  private readonly cuts: TalliedCounter;

  constructor(
    meter: Meter,
    private readonly label: ToolNameLabel,
  ) {
    this.lookups = new TalliedCounter(meter, M.CACHE_LOOKUPS, {
      description: 'Answered calls of cached tools, by how they met the cache.',
      unit: '{call}',
    });
    this.cuts = new TalliedCounter(meter, M.OUTPUT_CUTS, {
      description: 'Tool outputs cut to fit their output budget.',
      unit: '{call}',
    });
  }

  handle(event: ToolEvent): void {
    if (event.type === 'call.succeeded') this.answered(event.result);
  }

  private answered(result: ToolResult): void {
    const cache = result.metadata.cache as CacheMetadata | undefined;
    if (cache === undefined && result.metadata.output === undefined) return;
    const tool = this.label(result.tool);
    if (cache !== undefined) {
      this.lookups.add(1, `${tool}\u0000${cache.lookup}`, () => ({
        [A.TOOL_NAME]: tool,
        [A.CACHE_RESULT]: cache.lookup,
      }));
    }
    if (result.metadata.output !== undefined) {
      this.cuts.add(1, tool, () => ({ [A.TOOL_NAME]: tool }));
    }
  }
}
