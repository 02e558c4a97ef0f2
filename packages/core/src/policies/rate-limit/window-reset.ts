/** The window learnt: a second (a longer window's resets fall on whole seconds too). */
const PERIOD_MS = 1_000;
/** Where the reset falls in the second is kept to this many ms. */
const BIN_MS = 5;
const BINS = PERIOD_MS / BIN_MS;
/** The runs of refusals whose ends must agree before the reset is taken as known. */
const AGREEING_RUNS = 3;
/** A run's end placed no closer than this says too little of where the reset is. */
const WIDEST_END_MS = 400;
/**
 * A fixed window does not fill in its first 200 ms at the rates an adaptive controller sends
 * (five times its limit): a call sent then and refused says the reset is not where it was
 * thought to be.
 */
const FRESH_WINDOW_MS = 200;
/**
 * The first refusal of a run waits for a reset at most this far away. A window filled by a
 * rate near its limit refuses near its end, so a reset further away is more likely one wrongly
 * learnt (over HTTP a sliding log's probes once agreed, and a refusal then paused 452 ms) than
 * a window filled early; if it was, the next call is refused too, and that one waits.
 */
const NEAR_RESET_MS = 250;

/**
 * Where an upstream's fixed window resets, learnt from refusals alone (no header says it). A
 * fixed window refuses every call until its reset and then admits at once, so each run of
 * refusals ends at the same point of the second: between the send of the run's last refused
 * call and the send of the admitted one after it. When the last three runs all place the
 * reset at a common point, that is taken as the reset, and a refusal pauses the callers until
 * the next one rather than for a guess (each guess too short costs another refusal, each too
 * long costs time).
 *
 * A sliding log or a token bucket admits again as its count ages or refills, anywhere in the
 * second; their runs of refusals agree on a point only by chance (probes repeating every two
 * seconds can). A call sent in the first 200 ms after the point and refused anyway disproves
 * it, and three runs must agree again.
 *
 * @internal
 */
export class WindowReset {
  /** When the last refused call of the current run of refusals was sent. */
  private lastRefusedSentAt?: number;
  /** The refusals in the current run. */
  private refusalsInRun = 0;
  /** Where the last runs of refusals ended: `(last refused call sent, next admitted one sent]`. */
  private readonly runEnds: [number, number][] = [];
  /** Where the reset falls in the second (ms past a whole second), once known: the latest point. */
  private phase?: number;
  /** How much earlier than `phase` the reset may fall (the runs' ends shared that stretch). */
  private spreadMs = 0;
  /** The callers wait for the reset learnt: the run of refusals ends there, telling nothing new. */
  private waiting = false;

  /** A call sent at `sentAt` was refused (its answer came at `now`). */
  refused(now: number, sentAt = now): void {
    const supposed = this.next(sentAt);
    if (supposed !== undefined && supposed - sentAt > PERIOD_MS - FRESH_WINDOW_MS) this.forget();
    this.lastRefusedSentAt = Math.max(this.lastRefusedSentAt ?? sentAt, sentAt);
    this.refusalsInRun++;
  }

  /**
   * A call sent at `sentAt` succeeded (its answer came at `now`): after refusals, the reset fell
   * between the last refused call's send and this one's (in the time calls are sent, so that
   * a pause until it has the next call arrive just after it, whatever the way there takes).
   */
  succeeded(now: number, sentAt = now): void {
    const from = this.lastRefusedSentAt;
    if (from === undefined || sentAt <= from) return;
    this.lastRefusedSentAt = undefined;
    this.refusalsInRun = 0;
    const waited = this.waiting;
    this.waiting = false;
    if (waited || sentAt - from > WIDEST_END_MS) return;
    this.runEnds.push([from, sentAt]);
    if (this.runEnds.length > AGREEING_RUNS) this.runEnds.shift();
    const shared = this.runEnds.length === AGREEING_RUNS ? this.sharedStretch() : undefined;
    this.phase = shared?.to;
    this.spreadMs = shared === undefined ? 0 : shared.to - shared.from;
  }

  /**
   * How long the callers pause for a call sent at `sentAt` and refused (answered at `now`),
   * once the reset is learnt: until the first reset after its send (none, when that passed
   * while the answer came; undefined for the first refusal of a run when the reset is more
   * than 250 ms away). The run of refusals then ends there, and is not recorded again: its end
   * would only echo what was learnt, later by the callers' pacing each time.
   */
  waitFor(now: number, sentAt = now): number | undefined {
    const reset = this.next(sentAt);
    if (reset === undefined) return undefined;
    if (this.refusalsInRun <= 1 && reset - now > NEAR_RESET_MS) return undefined;
    this.waiting = true;
    return Math.max(0, reset - now);
  }

  /**
   * The earliest clock time the window a call sent at `at` fell in may have started, once the
   * reset is learnt (the reset learnt is the latest): the successes since then count all the
   * window admitted, and, at most, the last few of the window before.
   */
  earliestStart(at: number): number | undefined {
    const next = this.next(at);
    return next === undefined ? undefined : next - PERIOD_MS - this.spreadMs;
  }

  /** The clock time of the next reset after `now`, once learnt. */
  next(now: number): number | undefined {
    if (this.phase === undefined) return undefined;
    const reset = now - mod(now) + this.phase;
    return reset > now ? reset : reset + PERIOD_MS;
  }

  private forget(): void {
    this.phase = undefined;
    this.refusalsInRun = 0;
    this.waiting = false;
    this.runEnds.length = 0;
  }

  /**
   * The stretch of the second within every run's end, when they share any (runs' ends under
   * 400 ms long share one stretch at most), `(from, to]` in ms past a whole second: the reset
   * falls in it, and is taken at its latest point, so a pause until it never ends before the
   * reset.
   */
  private sharedStretch(): { from: number; to: number } | undefined {
    const covered = new Array<number>(BINS).fill(0);
    for (const [from, to] of this.runEnds) {
      const first = Math.floor(from / BIN_MS) + 1;
      const last = Math.ceil(to / BIN_MS);
      for (let bin = first; bin <= last; bin++) {
        const index = mod(bin, BINS);
        covered[index] = (covered[index] ?? 0) + 1;
      }
    }
    const shared = (bin: number) => covered[mod(bin, BINS)] === AGREEING_RUNS;
    const end = covered.findIndex((_, bin) => shared(bin) && !shared(bin + 1));
    if (end < 0) return undefined;
    let start = end;
    while (start > end - BINS && shared(start - 1)) start--;
    return { from: (start - 1) * BIN_MS, to: end * BIN_MS };
  }
}

/** `value` modulo `period`, from 0 (clock times may be negative in a virtual clock). */
function mod(value: number, period = PERIOD_MS): number {
  return ((value % period) + period) % period;
}
