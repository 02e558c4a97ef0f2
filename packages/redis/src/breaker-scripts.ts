/**
 * The Lua scripts that change a shared breaker's hash (`state`, `openedAt`, `version`,
 * `succeeded`, `since`) and its trial slots (a sorted set: each held slot with its lease's end
 * on Redis's clock) atomically. Each runs whole inside Redis, so two instances never both win
 * a transition or a trial slot.
 */

/**
 * Lua: `shift(to, openedAt, origin, channel, key, since)` moves the breaker (KEYS[1], trial
 * slots KEYS[2]) to a new version in state `to`, with no trial slot held or succeeded, and
 * publishes it; returns the new version.
 */
const SHIFT = `
local function shift(to, openedAt, origin, channel, key, since)
  local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0') + 1
  redis.call('HSET', KEYS[1], 'state', to, 'openedAt', openedAt, 'version', version, 'succeeded', 0, 'since', since)
  redis.call('DEL', KEYS[2])
  redis.call('PUBLISH', channel, cjson.encode({ key = key, state = to, openedAt = openedAt, version = version, origin = origin }))
  return version
end
`;

/** Lua: `now()`, Redis's clock in ms. */
const NOW = `
local function now()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * A transition `from` → `to`: applied when the hash still holds `from` (or holds nothing yet,
 * or `to` is `isolated`, a forced state), then published; otherwise nothing changes. Returns
 * `[applied, state, version, openedAt]` of the hash afterwards. `since` (the instance's clock,
 * ms) is when the new version's counting window starts.
 *
 * KEYS[1] the hash, KEYS[2] its trial slots; ARGV from, to, openedAt, origin instance,
 * channel, breaker key, since.
 */
export const TRANSITION_SCRIPT = `${SHIFT}
local state = redis.call('HGET', KEYS[1], 'state') or 'closed'
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local openedAt = redis.call('HGET', KEYS[1], 'openedAt') or ''
if state == ARGV[2] or (version > 0 and ARGV[2] ~= 'isolated' and state ~= ARGV[1]) then
  return {0, state, version, openedAt}
end
return {1, ARGV[2], shift(ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7]), ARGV[3]}
`;

/**
 * Joins the shared state: writes this instance's state when the hash is empty (a new or
 * restarted Redis), and returns the hash's `[applied, state, version, openedAt]` either way.
 * A hash it writes has `since` 0: what the instances counted before it belongs to its window.
 *
 * KEYS[1] the hash, KEYS[2] its trial slots; ARGV state, openedAt, origin instance, channel,
 * breaker key.
 */
export const JOIN_SCRIPT = `${SHIFT}
if redis.call('EXISTS', KEYS[1]) == 1 then
  local h = redis.call('HMGET', KEYS[1], 'state', 'version', 'openedAt')
  return {0, h[1], tonumber(h[2]), h[3] or ''}
end
return {1, ARGV[1], shift(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], 0), ARGV[2]}
`;

/**
 * Takes a trial slot for `slot` (an id of the instance's own) while the hash is half-open:
 * slots whose lease has ended (their holder died, or lost Redis) are freed first; the slot is
 * taken when the trials that succeeded plus the slots still held are fewer than `max`.
 * Returns the hash's version when it took the slot, 0 while open or isolated or every slot
 * is spoken for, -1 when closed or empty (nothing shared holds the call back, and no slot was
 * taken).
 *
 * KEYS[1] the hash, KEYS[2] its trial slots; ARGV max trials, slot id, lease (ms).
 */
export const ACQUIRE_TRIAL_SCRIPT = `${NOW}
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'open' or state == 'isolated' then return 0 end
if state ~= 'half_open' then return -1 end
local t = now()
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', t)
local succeeded = tonumber(redis.call('HGET', KEYS[1], 'succeeded') or '0')
if succeeded + redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[2], t + tonumber(ARGV[3]), ARGV[2])
redis.call('PEXPIRE', KEYS[2], tonumber(ARGV[3]))
return tonumber(redis.call('HGET', KEYS[1], 'version'))
`;

/**
 * Extends the leases of the slots this instance still holds (those still taken), so a live
 * holder keeps its slot however long its trial runs. KEYS[1] the trial slots; ARGV lease
 * (ms), then the slot ids.
 */
export const RENEW_TRIALS_SCRIPT = `${NOW}
local deadline = now() + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', deadline, ARGV[i]) end
if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1])) end
return 1
`;

/** Gives a trial slot back with no outcome (a neutral error). KEYS[1] the trial slots; ARGV slot id. */
export const RELEASE_TRIAL_SCRIPT = `
redis.call('ZREM', KEYS[1], ARGV[1])
return 1
`;

/**
 * A trial succeeded: counted when its slot is still held in the half-open state (then given
 * up); when the trials that succeeded reach `max`, the breaker closes, for every instance.
 * Returns `[counted, state, version, openedAt]` of the hash afterwards.
 *
 * KEYS[1] the hash, KEYS[2] its trial slots; ARGV slot id, max trials, origin instance,
 * channel, breaker key, now (the instance's clock, ms: when the closed window starts).
 */
export const TRIAL_SUCCEEDED_SCRIPT = `${SHIFT}
local h = redis.call('HMGET', KEYS[1], 'state', 'version', 'openedAt')
local version, openedAt = tonumber(h[2] or '0'), h[3] or ''
if h[1] ~= 'half_open' or redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then
  return {0, h[1] or 'closed', version, openedAt}
end
if redis.call('HINCRBY', KEYS[1], 'succeeded', 1) < tonumber(ARGV[2]) then
  return {1, 'half_open', version, openedAt}
end
return {1, 'closed', shift('closed', ARGV[6], ARGV[3], ARGV[4], ARGV[5], ARGV[6]), ARGV[6]}
`;

/**
 * Adds the counts one instance made while it could not reach Redis to the shared window, when
 * the hash is still closed at the version the instance joined (else nothing is added: the
 * window it would join has ended). Only buckets that began after the window's `since` take
 * counts, so nothing from before the transition that started the window is added. Then
 * nudges the other instances to read the window again, and returns `[added, successes,
 * failures]`, the other instances' counts in the window, read in the same script.
 *
 * KEYS[1] the hash, KEYS[2..] the window's buckets at that version, oldest first; ARGV
 * version, origin instance, channel, bucket length (ms), newest bucket's index, bucket TTL
 * (ms), then per bucket the instance's successes and failures.
 */
export const MERGE_SCRIPT = `
local h = redis.call('HMGET', KEYS[1], 'state', 'version', 'since')
if h[1] ~= 'closed' or tonumber(h[2]) ~= tonumber(ARGV[1]) then return {0, 0, 0} end
local since = tonumber(h[3] or '0')
local firstAfter = since == 0 and 0 or math.floor(since / tonumber(ARGV[4])) + 1
local me = ARGV[2] .. ':'
local buckets = #KEYS - 1
local added = 0
local successes, failures = 0, 0
for i = 1, buckets do
  local bucket = KEYS[i + 1]
  local s, f = tonumber(ARGV[5 + 2 * i]), tonumber(ARGV[6 + 2 * i])
  if (s > 0 or f > 0) and tonumber(ARGV[5]) - buckets + i >= firstAfter then
    if s > 0 then redis.call('HINCRBY', bucket, me .. 's', s) end
    if f > 0 then redis.call('HINCRBY', bucket, me .. 'f', f) end
    redis.call('PEXPIRE', bucket, ARGV[6])
    added = added + 1
  end
  local fields = redis.call('HGETALL', bucket)
  for j = 1, #fields, 2 do
    if string.sub(fields[j], 1, #me) ~= me then
      if string.sub(fields[j], -2) == ':f' then
        failures = failures + tonumber(fields[j + 1])
      else
        successes = successes + tonumber(fields[j + 1])
      end
    end
  end
end
if added > 0 then
  redis.call('PUBLISH', ARGV[3], cjson.encode({ nudge = true, origin = ARGV[2] }))
end
return {1, successes, failures}
`;
