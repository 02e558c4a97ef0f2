/**
 * The Lua script that adds an instance's calls and retries to a retry budget's shared window
 * and reads the window back. The window is a hash of buckets, `c<epoch>` (calls) and
 * `r<epoch>` (retries), one epoch per tenth of the window in Redis time (`TIME`), so the
 * instances' clocks never have to agree; buckets older than the window are deleted as they
 * pass, and the hash expires two windows after its last use.
 *
 * KEYS[1] the hash; ARGV bucket width ms, calls to add, retries to add.
 * Returns `{calls, retries}` of the window.
 *
 * @internal
 */
export const RETRY_BUDGET_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local width = tonumber(ARGV[1])
local epoch = math.floor(now / width)
if tonumber(ARGV[2]) > 0 then redis.call('HINCRBY', KEYS[1], 'c' .. epoch, ARGV[2]) end
if tonumber(ARGV[3]) > 0 then redis.call('HINCRBY', KEYS[1], 'r' .. epoch, ARGV[3]) end
local all = redis.call('HGETALL', KEYS[1])
local calls, retries = 0, 0
for i = 1, #all, 2 do
  local field = all[i]
  if tonumber(string.sub(field, 2)) <= epoch - 10 then
    redis.call('HDEL', KEYS[1], field)
  elseif string.sub(field, 1, 1) == 'c' then
    calls = calls + tonumber(all[i + 1])
  else
    retries = retries + tonumber(all[i + 1])
  end
end
redis.call('PEXPIRE', KEYS[1], math.ceil(width * 20))
return {calls, retries}
`;
