import type { FollowedRateChange } from './shared-schedule.js';
import { LuaScript } from './lua-script.js';
import {
  ANNOUNCE_SCRIPT,
  HEARTBEAT_SCRIPT,
  LEARNED_SCRIPT,
  PAUSE_SCRIPT,
  RAISE_SCRIPT,
  RESERVE_SCRIPT,
  RESPACE_SCRIPT,
  SLOW_DOWN_SCRIPT,
} from './rate-limit-scripts.js';

/** The shared rate limit's scripts (rate-limit-scripts.ts), as `RedisRateLimitStore` runs them. */
export const RESERVE = new LuaScript(RESERVE_SCRIPT);
export const PAUSE = new LuaScript(PAUSE_SCRIPT);
export const SLOW_DOWN = new LuaScript(SLOW_DOWN_SCRIPT);
export const RAISE = new LuaScript(RAISE_SCRIPT);
export const LEARNED = new LuaScript(LEARNED_SCRIPT);
export const HEARTBEAT = new LuaScript(HEARTBEAT_SCRIPT);
export const ANNOUNCE = new LuaScript(ANNOUNCE_SCRIPT);
export const RESPACE = new LuaScript(RESPACE_SCRIPT);
/** Every one of them, loaded on each connection. */
export const SCRIPTS = [RESERVE, PAUSE, SLOW_DOWN, RAISE, LEARNED, HEARTBEAT, ANNOUNCE, RESPACE];

/** A change as published on the channel (`respaced` with its factor and Redis time as text). */
export type PublishedChange = (
  | Exclude<FollowedRateChange, { kind: 'respaced' }>
  | {
      readonly kind: 'respaced';
      readonly factor: string;
      readonly from: string;
      readonly respaced: string;
    }
) & { readonly key: string; readonly origin: string; readonly version?: number };

/** `{applied, floor, top, ms since the slow-down, rate, version}` of the slow-down script. */
export type SlowDownReply = [number, string | null, string | null, string, string | null, number];
/** `{granted, ms, Redis time, latest respacing}` of the reservation script. */
export type ReserveReply = [number, string, string, string];
/** `{floor, top, ms since the slow-down, rate, version, announced, latest respacing}`. */
export type LearnedReply = [string, string, string, string, number, string?, string?];
/** `{factor, from, respacing}` of the respacing script (Redis times). */
export type RespaceReply = [string, string, string];
