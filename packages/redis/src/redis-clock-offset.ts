/** How long one best sample of the offset counts before newer ones replace it (clocks drift). */
const PERIOD_MS = 5_000;

/**
 * Where a time on Redis's clock falls on this process's clock, learned from the replies of
 * scripts that read Redis time: a reply read at local time `receivedAt` that says Redis time
 * `redisMs` proves the offset (Redis minus local) is at least `redisMs - receivedAt`, because
 * Redis read its clock before the reply came back. The largest such bound seen lately is the
 * estimate: a time laid onto the local clock with it is never earlier than the true one, and
 * late only by the way back of the quickest recent reply, whatever delayed the others (a
 * busy event loop that handled a reply 50 ms late does not make its slot 50 ms late).
 * The best sample of the current and of the previous period count, so a drift of either
 * clock is followed within two periods.
 */
export class RedisClockOffset {
  private current = Number.NEGATIVE_INFINITY;
  private previous = Number.NEGATIVE_INFINITY;
  private periodEndsAt = Number.NEGATIVE_INFINITY;

  /** A reply read at local time `receivedAt` saying Redis time `redisMs`. */
  sample(redisMs: number, receivedAt: number): void {
    if (receivedAt >= this.periodEndsAt) {
      this.previous = this.current;
      this.current = Number.NEGATIVE_INFINITY;
      this.periodEndsAt = receivedAt + PERIOD_MS;
    }
    this.current = Math.max(this.current, redisMs - receivedAt);
  }

  /** Redis time `redisMs` on the local clock (call after at least one {@link sample}). */
  toLocal(redisMs: number): number {
    return redisMs - Math.max(this.current, this.previous);
  }
}
