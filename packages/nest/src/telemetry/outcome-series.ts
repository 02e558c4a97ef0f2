/**
 * What a metrics recorder keeps per tool and outcome (`errorType` undefined for a success),
 * made once and found again without building a key string on every call.
 *
 * @internal
 */
export class OutcomeSeries<T> {
  private readonly byTool = new Map<string, Map<string, T>>();

  constructor(private readonly make: (tool: string, errorType: string | undefined) => T) {}

  of(tool: string, errorType: string | undefined): T {
    let byOutcome = this.byTool.get(tool);
    if (!byOutcome) {
      byOutcome = new Map();
      this.byTool.set(tool, byOutcome);
    }
    const outcome = errorType ?? '';
    let series = byOutcome.get(outcome);
    if (series === undefined) {
      series = this.make(tool, errorType);
      byOutcome.set(outcome, series);
    }
    return series;
  }
}
