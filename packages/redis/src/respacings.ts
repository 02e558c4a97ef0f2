/** A respacing of one key's slots: those after Redis time `from` moved `factor` times as far. */
interface Respacing {
  /** When it was made (Redis time): it names the respacing. */
  readonly at: number;
  readonly factor: number;
  readonly from: number;
}

/**
 * The latest respacing (a rate fall moving the slots reserved so far apart, in Redis) this
 * instance applied, per key. It goes with every reservation: one asked at a rate that has
 * since fallen (the instance had not heard yet) is spaced at the schedule's spacing. And a
 * reservation that ran before the latest respacing, but whose answer is read after this
 * instance applied it (the answer and the message come on different connections), has its
 * slot moved as the held ones were.
 *
 * @internal
 */
export class Respacings {
  private readonly latest = new Map<string, Respacing>();

  /** The latest respacing of `key` this instance knows of (0: none). */
  known(key: string): number {
    return this.latest.get(key)?.at ?? 0;
  }

  /** Heard of the respacing of `key` made at `at`; true when it is news, to apply. */
  heard(key: string, at: number, factor: number, from: number): boolean {
    if (at <= this.known(key)) return false;
    this.latest.set(key, { at, factor, from });
    return true;
  }

  /** Joining: the latest respacing of `key` is the one made at `at`, nothing to apply. */
  joined(key: string, at: number): void {
    if (at !== this.known(key)) this.latest.set(key, { at, factor: 1, from: 0 });
  }

  /** The Redis time of a slot at `slotAt`, reserved after the respacing made at `respaced`. */
  placed(key: string, respaced: number, slotAt: number): number {
    const latest = this.latest.get(key);
    if (latest === undefined || respaced >= latest.at || slotAt <= latest.from) return slotAt;
    return latest.from + (slotAt - latest.from) * latest.factor;
  }
}
