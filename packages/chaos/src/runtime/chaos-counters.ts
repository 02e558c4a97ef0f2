/**
 * How much chaos a controller injected (since it was created or last reset).
 *
 * @publicApi
 */
export interface ChaosCounters {
  /** Calls that went through the controller while it was enabled. */
  readonly calls: number;
  /** Faults injected (a call can receive several, one per rule). */
  readonly injections: number;
  readonly byRule: Readonly<Record<string, number>>;
  readonly byFault: Readonly<Record<string, number>>;
  readonly byTool: Readonly<Record<string, number>>;
}

/** Mutable tallies behind {@link ChaosCounters}. */
export class ChaosTally {
  private calls = 0;
  private injections = 0;
  private readonly byRule = new Map<string, number>();
  private readonly byFault = new Map<string, number>();
  private readonly byTool = new Map<string, number>();

  countCall(): void {
    this.calls++;
  }

  countInjection(rule: string, fault: string, tool: string): void {
    this.injections++;
    increment(this.byRule, rule);
    increment(this.byFault, fault);
    increment(this.byTool, tool);
  }

  snapshot(): ChaosCounters {
    return Object.freeze({
      calls: this.calls,
      injections: this.injections,
      byRule: Object.freeze(Object.fromEntries(this.byRule)),
      byFault: Object.freeze(Object.fromEntries(this.byFault)),
      byTool: Object.freeze(Object.fromEntries(this.byTool)),
    });
  }
}

function increment(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
