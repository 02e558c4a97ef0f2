/**
 * The Lua script that adds what an instance's calls earned and its retries spent to a retry
 * budget's shared balance (see core's `RetryBudgetOptions`) and reads the balance back. The
 * balance is a hash `{balance, at}`: time refills it at `minRetriesPerSecond` in Redis time
 * (`TIME`, so the instances' clocks never have to agree), never above `burst`; a missing hash
 * reads as full, so the hash expires once time would have filled it.
 *
 * KEYS[1] the hash; ARGV burst, retries earned per ms, retries earned, retries spent.
 * Returns the balance, as a string (Redis would cut a number's fraction).
 *
 * @internal
 */
export const RETRY_BUDGET_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local burst = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'balance', 'at')
local balance = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
balance = math.min(burst, balance + math.max(0, now - at) * perMs)
balance = math.min(burst, balance + tonumber(ARGV[3]) - tonumber(ARGV[4]))
redis.call('HSET', KEYS[1], 'balance', tostring(balance), 'at', tostring(now))
if perMs > 0 then
  redis.call('PEXPIRE', KEYS[1], math.ceil((burst - balance) / perMs) + 1000)
else
  redis.call('PEXPIRE', KEYS[1], 86400000)
end
return tostring(balance)
`;
