/**
 * The Redis side of the shared limiter: a sorted set of slot times per budget and a small hash
 * of state, changed only by these scripts, each run atomically by Redis. Times are Redis's own
 * clock (TIME), so processes on several machines agree without synchronised clocks.
 *
 * Keys (one hash slot, for Redis Cluster): `<prefix>:stamps`, a ZSET whose members are slot
 * numbers and scores the times the slots count from (slot.ts), in ms; `<prefix>:state`, a HASH
 * with `since` (when this state was created), `seq` (the last slot number), `spaced` (the
 * earliest the next slot may be taken: slots are spaced, limiter.ts) and `widened` (until when
 * slots count from their answers: a 429 came, slot.ts). Every script that
 * writes a key sets its TTL again, so a key outlives every stamp in it.
 *
 * When the state is missing (a Redis that restarted empty, or keys evicted), the slots taken
 * just before are unknown, so none is taken for one window after `since`: whatever was taken
 * before the loss has left every window by then.
 */

/**
 * KEYS: stamps, state. ARGV: perSecond, perHour (0: no hourly log), windowMs, want, keepMs,
 * stateTtlMs, spacingMs. Takes up to `want` slots, the i-th (from 0) for `spacingMs` × i after
 * the first, which is now or, just after other slots, when the spacing allows. Returns { taken,
 * first slot number, ms until the next slot frees (0 when all were taken), when they were taken
 * (Redis's ms, rounded up), ms from then to the first slot's time (rounded up), ms for which
 * slots still count from their answers (0: none) }.
 */
export const TAKE = `
local per_second, per_hour = tonumber(ARGV[1]), tonumber(ARGV[2])
local window, want = tonumber(ARGV[3]), tonumber(ARGV[4])
local keep, state_ttl = tonumber(ARGV[5]), tonumber(ARGV[6])
local spacing = tonumber(ARGV[7])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local since = tonumber(redis.call('HGET', KEYS[2], 'since'))
if since == nil then
  since = now
  redis.call('HSET', KEYS[2], 'since', since)
end
redis.call('PEXPIRE', KEYS[2], state_ttl)
if now < since + window then
  return {0, 0, math.ceil(since + window - now), math.ceil(now), 0, 0}
end
local widened = tonumber(redis.call('HGET', KEYS[2], 'widened')) or 0
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - keep)
local free = per_second - redis.call('ZCOUNT', KEYS[1], now - window, '+inf')
if per_hour > 0 then
  free = math.min(free, per_hour - redis.call('ZCARD', KEYS[1]))
end
local n = math.max(0, math.min(want, free))
local first, start = 0, now
if n > 0 then
  first = redis.call('HINCRBY', KEYS[2], 'seq', n) - n + 1
  -- A late ask does not push the slots after it later (as in process, a millisecond).
  start = math.max(tonumber(redis.call('HGET', KEYS[2], 'spaced')) or 0, now - 1)
  redis.call('HSET', KEYS[2], 'spaced', start + n * spacing)
  local args = {}
  for i = 0, n - 1 do
    args[2 * i + 1] = start + i * spacing
    args[2 * i + 2] = first + i
  end
  redis.call('ZADD', KEYS[1], unpack(args))
  redis.call('PEXPIRE', KEYS[1], keep)
end
local wait = 0
if n < want then
  local oldest = redis.call('ZREVRANGE', KEYS[1], per_second - 1, per_second - 1, 'WITHSCORES')
  if oldest[2] then wait = tonumber(oldest[2]) + window - now end
  if per_hour > 0 then
    local hourly = redis.call('ZREVRANGE', KEYS[1], per_hour - 1, per_hour - 1, 'WITHSCORES')
    if hourly[2] then wait = math.max(wait, tonumber(hourly[2]) + 3600000 - now) end
  end
  wait = math.max(1, math.ceil(wait))
end
return {n, first, wait, math.ceil(now), math.max(0, math.ceil(start - now)),
  math.max(0, math.floor(widened - now))}
`;

/**
 * KEYS: state. ARGV: widenedMs, stateTtlMs. A 429 came: the budget's slots count from their
 * answers for `widenedMs` from now.
 */
export const WIDEN = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
redis.call('HSET', KEYS[1], 'widened', now + tonumber(ARGV[1]))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 0
`;

/**
 * KEYS: stamps. ARGV: keepMs, then pairs of slot number and time. Moves those slots to those
 * times (Redis's ms), and keeps the key at least `keepMs` longer.
 */
export const MOVE = `
for i = 2, #ARGV, 2 do
  redis.call('ZADD', KEYS[1], 'XX', tonumber(ARGV[i + 1]), ARGV[i])
end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 0
`;
