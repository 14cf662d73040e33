/**
 * The Redis side of the shared limiter: a sorted set of grant times per budget and a small
 * hash of state, changed only by these scripts, each run atomically by Redis. Times are Redis's
 * own clock (TIME), so processes on several machines agree without synchronised clocks.
 *
 * Keys (one hash slot, for Redis Cluster): `<prefix>:stamps`, a ZSET whose members are grant
 * numbers and scores grant times in ms; `<prefix>:state`, a HASH with `since` (when this state
 * was created), `seq` (the last grant number), and the learned allowance (`learned`,
 * `learnedAt`, `epoch`; see margin.ts, whose rule is repeated here).
 *
 * When the state is missing (a Redis that restarted empty, or keys evicted), the grants made
 * just before are unknown, so no grant is made for one window after `since`: whatever was
 * granted before the loss has left every window by then.
 */
import { HALF_LIFE_MS, MAX_LEARNED_MS, WIDEN_STEP_MS } from "./margin.js";

const NOW = `
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
end
local function learned_at(learned, since, now)
  learned = tonumber(learned) or 0
  if learned == 0 then return 0 end
  local part = learned * math.pow(2, -(now - (tonumber(since) or now)) / ${HALF_LIFE_MS})
  if part < 0.5 then return 0 end
  return part
end
`;

/**
 * KEYS: stamps, state. ARGV: perSecond, perHour (0: no hourly log), marginMs, want, keepMs,
 * stateTtlMs. Grants up to `want` slots. Returns { granted, first grant number, ms until the
 * next slot frees (0 when all were granted), epoch and ms of the learned allowance }.
 */
export const GRANT = `${NOW}
local per_second, per_hour = tonumber(ARGV[1]), tonumber(ARGV[2])
local margin, want = tonumber(ARGV[3]), tonumber(ARGV[4])
local keep, state_ttl = tonumber(ARGV[5]), tonumber(ARGV[6])
local now = now_ms()
local state = redis.call('HMGET', KEYS[2], 'since', 'learned', 'learnedAt', 'epoch')
local since = tonumber(state[1])
if since == nil then
  since = now
  redis.call('HSET', KEYS[2], 'since', since)
end
redis.call('PEXPIRE', KEYS[2], state_ttl)
local epoch = tonumber(state[4]) or 0
local learned = math.ceil(learned_at(state[2], state[3], now))
local window = 1000 + margin
if now < since + window then
  return {0, 0, math.ceil(since + window - now), epoch, learned}
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - keep)
local free = per_second - redis.call('ZCOUNT', KEYS[1], now - window, '+inf')
if per_hour > 0 then
  free = math.min(free, per_hour - redis.call('ZCARD', KEYS[1]))
end
local n = math.max(0, math.min(want, free))
local first = 0
if n > 0 then
  first = redis.call('HINCRBY', KEYS[2], 'seq', n) - n + 1
  local args = {}
  for i = 0, n - 1 do
    args[2 * i + 1] = now
    args[2 * i + 2] = first + i
  end
  redis.call('ZADD', KEYS[1], unpack(args))
  redis.call('PEXPIRE', KEYS[1], math.ceil(keep))
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
return {n, first, wait, epoch, learned}
`;

/** KEYS: stamps. ARGV: pairs of grant number and ms. Moves those grants later by those ms. */
export const EXTEND = `
for i = 1, #ARGV, 2 do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score then redis.call('ZADD', KEYS[1], 'XX', tonumber(score) + tonumber(ARGV[i + 1]), ARGV[i]) end
end
return 0
`;

/** KEYS: state. ARGV: epoch of the 429'd grant, stateTtlMs. Widens the allowance once per epoch. */
export const WIDEN = `${NOW}
local state = redis.call('HMGET', KEYS[1], 'learned', 'learnedAt', 'epoch')
local epoch = tonumber(state[3]) or 0
if epoch ~= tonumber(ARGV[1]) then return 0 end
local now = now_ms()
local learned = math.min(${MAX_LEARNED_MS}, math.max(${WIDEN_STEP_MS}, 2 * learned_at(state[1], state[2], now)))
redis.call('HSET', KEYS[1], 'learned', learned, 'learnedAt', now, 'epoch', epoch + 1)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1
`;
