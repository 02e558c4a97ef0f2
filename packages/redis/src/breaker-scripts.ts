/**
 * The Lua scripts that change a shared breaker's hash (`state`, `openedAt`, `version`,
 * `trials`, `since`) atomically. Each runs whole inside Redis, so two instances never both win a
 * transition or a trial slot.
 */

/**
 * A transition `from` → `to`: applied when the hash still holds `from` (or holds nothing yet,
 * or `to` is `isolated`, a forced state), then published; otherwise nothing changes. Returns
 * `[applied, state, version, openedAt]` of the hash afterwards. `since` (the instance's clock,
 * ms) is when the new version's counting window starts.
 *
 * KEYS[1] the hash; ARGV from, to, openedAt, origin instance, channel, breaker key, since.
 */
export const TRANSITION_SCRIPT = `
local state = redis.call('HGET', KEYS[1], 'state') or 'closed'
local version = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
local openedAt = redis.call('HGET', KEYS[1], 'openedAt') or ''
if state == ARGV[2] or (version > 0 and ARGV[2] ~= 'isolated' and state ~= ARGV[1]) then
  return {0, state, version, openedAt}
end
version = version + 1
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'openedAt', ARGV[3], 'version', version, 'trials', 0, 'since', ARGV[7])
redis.call('PUBLISH', ARGV[5], cjson.encode({ key = ARGV[6], state = ARGV[2], openedAt = ARGV[3], version = version, origin = ARGV[4] }))
return {1, ARGV[2], version, ARGV[3]}
`;

/**
 * Joins the shared state: writes this instance's state when the hash is empty (a new or
 * restarted Redis), and returns the hash's `[applied, state, version, openedAt]` either way.
 * A hash it writes has `since` 0: what the instances counted before it belongs to its window.
 *
 * KEYS[1] the hash; ARGV state, openedAt, origin instance, channel, breaker key.
 */
export const JOIN_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  local h = redis.call('HMGET', KEYS[1], 'state', 'version', 'openedAt')
  return {0, h[1], tonumber(h[2]), h[3] or ''}
end
redis.call('HSET', KEYS[1], 'state', ARGV[1], 'openedAt', ARGV[2], 'version', 1, 'trials', 0, 'since', 0)
redis.call('PUBLISH', ARGV[4], cjson.encode({ key = ARGV[5], state = ARGV[1], openedAt = ARGV[2], version = 1, origin = ARGV[3] }))
return {1, ARGV[1], 1, ARGV[2]}
`;

/**
 * Takes a trial slot: 1 when the hash is half-open with fewer than ARGV[1] trials taken (and
 * counts it), 0 while it is open or isolated or every slot is taken, 1 when it is closed or
 * empty (nothing shared to hold the call back).
 *
 * KEYS[1] the hash; ARGV max trials.
 */
export const ACQUIRE_TRIAL_SCRIPT = `
local state = redis.call('HGET', KEYS[1], 'state')
if state == 'open' or state == 'isolated' then return 0 end
if state ~= 'half_open' then return 1 end
if tonumber(redis.call('HGET', KEYS[1], 'trials') or '0') >= tonumber(ARGV[1]) then return 0 end
redis.call('HINCRBY', KEYS[1], 'trials', 1)
return 1
`;

/** Gives a trial slot back (never below zero). KEYS[1] the hash. */
export const RELEASE_TRIAL_SCRIPT = `
if redis.call('HGET', KEYS[1], 'state') == 'half_open' and tonumber(redis.call('HGET', KEYS[1], 'trials') or '0') > 0 then
  redis.call('HINCRBY', KEYS[1], 'trials', -1)
end
return 1
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
