/**
 * The Lua scripts that change a shared rate limit's hash atomically: the GCRA schedule
 * (`tat`, the theoretical arrival time of the next call, and `paused`, both in Redis time ms;
 * `interval`, the spacing the slots are laid at, `respaced`, when a fall last moved them apart)
 * and what the instances learned (`rate`, `floor`, `top`, `decreasedAt`, `version`,
 * `announced`). Every
 * time is Redis's own (`TIME`), so the instances' clocks never have to agree; replies carry
 * durations, which each instance lays onto its own clock. Each script refreshes the hash's
 * expiry: a key idle for the state TTL past its last reserved slot is forgotten.
 */

/** Redis time in ms, with the microseconds as a fraction. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
`;

/** Keeps the hash at least `ttl` ms past `last` (never shortens a longer expiry). */
const KEEP = `
local function keep(last, ttl)
  local wanted = math.ceil(math.max(last - now, 0) + ttl)
  if redis.call('PTTL', KEYS[1]) < wanted then redis.call('PEXPIRE', KEYS[1], wanted) end
end
`;

/**
 * Reserves the next slot: the call may leave at `max(now, tat - (burst - 1) * interval,
 * paused)`; when that is no more than `maxWait` away, `tat` moves one interval past it.
 * A reservation from an instance that has not yet heard of the latest respacing (the one it
 * knows is older than `respaced`) is spaced at least at the `interval` the schedule holds, and
 * leaves it unchanged: it was asked at a rate that has since fallen. Returns `{1, wait, now,
 * respaced}` (granted, ms from now) or `{0, wait, now, respaced}` (refused, nothing reserved),
 * `now` being Redis time, so the instance can place the slot on its own clock, and
 * `respaced` the latest respacing the slot went through ('0': none).
 *
 * KEYS[1] the hash; ARGV interval ms, burst, max wait ms, state TTL ms, latest respacing known.
 */
export const RESERVE_SCRIPT = `${NOW}${KEEP}
local h = redis.call('HMGET', KEYS[1], 'tat', 'paused', 'interval', 'respaced')
local respaced = h[4] or '0'
local current = tonumber(ARGV[5]) >= tonumber(respaced)
local interval = tonumber(ARGV[1])
if not current then interval = math.max(interval, tonumber(h[3]) or interval) end
local tat = tonumber(h[1]) or now
local at = math.max(now, tat - (tonumber(ARGV[2]) - 1) * interval, tonumber(h[2]) or now)
local wait = at - now
local stamp = string.format('%.17g', now)
if wait > tonumber(ARGV[3]) then return {0, string.format('%.17g', wait), stamp, respaced} end
tat = math.max(at, tat) + interval
redis.call('HSET', KEYS[1], 'tat', string.format('%.17g', tat))
if current then redis.call('HSET', KEYS[1], 'interval', ARGV[1]) end
keep(tat, tonumber(ARGV[4]))
return {1, string.format('%.17g', wait), stamp, respaced}
`;

/**
 * Holds every call back for `forMs`: sets `paused`, and moves the slots already reserved
 * past the old pause (or now) by the same shift, so they keep their spacing after the new
 * pause; publishes `{ kind = 'paused', forMs, shiftMs }` for the instances holding them.
 * Returns the shift (0: an equal or longer pause was already there).
 *
 * KEYS[1] the hash; ARGV for ms, state TTL ms, channel, limiter key, origin instance.
 */
export const PAUSE_SCRIPT = `${NOW}${KEEP}
local h = redis.call('HMGET', KEYS[1], 'tat', 'paused')
local paused = tonumber(h[2]) or 0
local untilMs = now + tonumber(ARGV[1])
if untilMs <= paused then return '0' end
local base = math.max(now, paused)
local shift = untilMs - base
local tat = tonumber(h[1])
if tat ~= nil and tat > base then
  tat = tat + shift
  redis.call('HSET', KEYS[1], 'tat', string.format('%.17g', tat))
end
redis.call('HSET', KEYS[1], 'paused', string.format('%.17g', untilMs))
keep(math.max(tat or 0, untilMs), tonumber(ARGV[2]))
redis.call('PUBLISH', ARGV[3], cjson.encode({ key = ARGV[4], kind = 'paused', forMs = tonumber(ARGV[1]), shiftMs = shift, origin = ARGV[5] }))
return string.format('%.17g', shift)
`;

/**
 * An instance's rate fell, its calls now spaced `interval` ms apart: when the slots reserved
 * so far were laid closer (the last at a shorter `interval`), every one still to come (after
 * `now`, or after the pause) moves apart by the ratio, `tat` with them; `interval` becomes the
 * new spacing, so the instances that fall with it find nothing left to move (once per fall,
 * not once per instance), and `respaced` is now (Redis time: it names the respacing, and grows
 * even when the hash expired in between). Publishes `{ kind = 'respaced', factor, from,
 * respaced }` (`from` in Redis time, which each instance places on its own clock) for the
 * instances holding those slots. Returns `{factor, from, respaced}` (factor 1: nothing moved).
 *
 * KEYS[1] the hash; ARGV interval ms, state TTL ms, channel, limiter key, origin instance.
 */
export const RESPACE_SCRIPT = `${NOW}${KEEP}
local h = redis.call('HMGET', KEYS[1], 'tat', 'paused', 'interval', 'respaced')
local interval = tonumber(ARGV[1])
local laid = tonumber(h[3])
local respaced = h[4] or '0'
if laid == nil or interval <= laid then return {'1', '0', respaced} end
redis.call('HSET', KEYS[1], 'interval', ARGV[1])
local tat = tonumber(h[1])
local from = math.max(now, tonumber(h[2]) or now)
if tat == nil or tat <= from then return {'1', '0', respaced} end
local factor = string.format('%.17g', interval / laid)
tat = from + (tat - from) * tonumber(factor)
respaced = string.format('%.17g', now)
redis.call('HSET', KEYS[1], 'tat', string.format('%.17g', tat), 'respaced', respaced)
keep(tat, tonumber(ARGV[2]))
from = string.format('%.17g', from)
redis.call('PUBLISH', ARGV[3], cjson.encode({ key = ARGV[4], kind = 'respaced', factor = factor, from = from, respaced = respaced, origin = ARGV[5] }))
return {factor, from, respaced}
`;

/**
 * A slow-down after a refusal: applied (the learned `rate` and its `floor` set to the
 * proposal, `top` the refused rate, `version` bumped, published) when no instance slowed
 * down within the cooldown; otherwise nothing changes. Returns
 * `{applied, floor, top, ms since the slow-down, rate, version}` afterwards.
 *
 * KEYS[1] the hash; ARGV rate, top, cooldown ms, state TTL ms, channel, limiter key, origin.
 */
export const SLOW_DOWN_SCRIPT = `${NOW}${KEEP}
local h = redis.call('HMGET', KEYS[1], 'floor', 'top', 'decreasedAt', 'version', 'rate')
local decreasedAt = tonumber(h[3])
local version = tonumber(h[4]) or 0
if decreasedAt ~= nil and now - decreasedAt < tonumber(ARGV[3]) then
  return {0, h[1], h[2], string.format('%.17g', now - decreasedAt), h[5], version}
end
version = version + 1
redis.call('HSET', KEYS[1], 'rate', ARGV[1], 'floor', ARGV[1], 'top', ARGV[2], 'decreasedAt', string.format('%.17g', now), 'version', version)
keep(now, tonumber(ARGV[4]))
redis.call('PUBLISH', ARGV[5], cjson.encode({ key = ARGV[6], kind = 'slowed', rate = tonumber(ARGV[1]), top = tonumber(ARGV[2]), version = version, origin = ARGV[7] }))
return {1, ARGV[1], ARGV[2], '0', ARGV[1], version}
`;

/**
 * A raise while nothing is refused: the learned `rate` becomes the proposal when it is
 * higher and the proposer knew the latest slow-down (`version`), so a raise built on a rate
 * from before a slow-down never undoes it; published when applied. Returns 1 or 0.
 *
 * KEYS[1] the hash; ARGV rate, known version, state TTL ms, channel, limiter key, origin.
 */
export const RAISE_SCRIPT = `${NOW}${KEEP}
local h = redis.call('HMGET', KEYS[1], 'rate', 'version')
if (tonumber(h[2]) or 0) ~= tonumber(ARGV[2]) then return 0 end
if h[1] and tonumber(h[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'rate', ARGV[1])
keep(now, tonumber(ARGV[3]))
redis.call('PUBLISH', ARGV[4], cjson.encode({ key = ARGV[5], kind = 'raised', rate = tonumber(ARGV[1]), version = tonumber(ARGV[2]), origin = ARGV[6] }))
return 1
`;

/**
 * The limit the upstream announced (calls a second), read by one instance from its headers:
 * kept as `announced` and published when it differs from the one kept (the latest
 * announcement wins). Returns 1 or 0.
 *
 * KEYS[1] the hash; ARGV rate, state TTL ms, channel, limiter key, origin.
 */
export const ANNOUNCE_SCRIPT = `${NOW}${KEEP}
if redis.call('HGET', KEYS[1], 'announced') == ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'announced', ARGV[1])
keep(now, tonumber(ARGV[2]))
redis.call('PUBLISH', ARGV[3], cjson.encode({ key = ARGV[4], kind = 'announced', rate = tonumber(ARGV[1]), origin = ARGV[5] }))
return 1
`;

/**
 * What the instances learned so far, for an instance joining: `{floor, top, ms since the
 * slow-down, rate, version, announced, latest respacing}` (empty strings for what is not there,
 * '0' for no respacing).
 *
 * KEYS[1] the hash.
 */
export const LEARNED_SCRIPT = `${NOW}
local h = redis.call('HMGET', KEYS[1], 'floor', 'top', 'decreasedAt', 'rate', 'version', 'announced', 'respaced')
local since = ''
if h[3] then since = string.format('%.17g', now - tonumber(h[3])) end
return {h[1] or '', h[2] or '', since, h[4] or '', tonumber(h[5]) or 0, h[6] or '', h[7] or '0'}
`;

/**
 * This instance is alive: its heartbeat in the sorted set of the application's instances,
 * those silent for longer than the timeout dropped. Returns how many are alive.
 *
 * KEYS[1] the sorted set; ARGV instance, timeout ms.
 */
export const HEARTBEAT_SCRIPT = `${NOW}
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return redis.call('ZCARD', KEYS[1])
`;
