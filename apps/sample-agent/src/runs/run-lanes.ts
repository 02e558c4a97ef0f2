/**
 * Small numbers for the live runs (1, 2, ...): a run holds its lane while it runs here, and a
 * lane is reused once its run ended. State kept per run under its lane (a breaker per run)
 * then stays as many as the runs at once, not one per run ever made (metric series, health
 * listings).
 */
export class RunLanes {
  private readonly lanes = new Map<string, number>();

  /** The lane of `runId`: the one it holds, else the lowest free one. */
  take(runId: string): number {
    const held = this.lanes.get(runId);
    if (held !== undefined) return held;
    const taken = new Set(this.lanes.values());
    let lane = 1;
    while (taken.has(lane)) lane += 1;
    this.lanes.set(runId, lane);
    return lane;
  }

  /** Frees the lane of `runId`, and returns it. */
  release(runId: string): number | undefined {
    const lane = this.lanes.get(runId);
    this.lanes.delete(runId);
    return lane;
  }

  /** The run holding `lane`, if any. */
  holder(lane: number): string | undefined {
    for (const [runId, held] of this.lanes) if (held === lane) return runId;
    return undefined;
  }
}
