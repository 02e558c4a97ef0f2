import { describe, expect, it } from '@jest/globals';
import { RedisClockOffset } from '../src/redis-clock-offset.js';

describe('RedisClockOffset', () => {
  it('places Redis times on the local clock by the quickest reply, never earlier than they are', () => {
    // Redis's clock runs 1,000 ms ahead of this process's.
    const offset = new RedisClockOffset();
    // Read 2 ms after Redis answered; then a reply handled 60 ms late (a busy event loop).
    offset.sample(11_000, 10_002);
    offset.sample(11_100, 10_160);
    // A slot at Redis time 11_200 is local 10_200 really: placed at 10_202, not 10_260.
    expect(offset.toLocal(11_200)).toBe(10_202);
    offset.sample(11_300, 10_300.5);
    expect(offset.toLocal(11_400)).toBe(10_400.5);
  });

  it('follows a drifting clock: a best sample counts for two periods of 5 s at most', () => {
    const offset = new RedisClockOffset();
    offset.sample(11_000, 10_000);
    // Redis's clock is now 10 ms slower relative to this one; the old bound would place
    // slots 10 ms early, until it ages out.
    offset.sample(15_990, 15_000);
    expect(offset.toLocal(16_000)).toBe(15_000);
    offset.sample(20_990, 20_001);
    offset.sample(20_990, 20_000);
    expect(offset.toLocal(21_000)).toBe(20_010);
  });
});
