import type { FaultOptions } from "./faults.js";
import type { EmulatorRateLimit } from "./rate-limit.js";
import type { Seed } from "./state/state.js";

export interface EmulatorOptions {
  /** Valid access tokens; default one random token, exposed as `emulator.token`. */
  tokens?: string[];
  /** The port on 127.0.0.1; default 0, a free one (see `emulator.url`). */
  port?: number;
  /** Per-token limits (default 20/s and 72,000/h, the service's); false disables them. */
  rateLimit?: Partial<EmulatorRateLimit> | false;
  /** `Accept-Version` values served; default ["1"]. A request without the header asks for "1". */
  servedVersions?: string[];
  /** A path prefix before the API, as Enterprise installs may have (e.g. "/api"). */
  basePath?: string;
  /** Faults from the start; `emulator.faults` changes them later. */
  faults?: FaultOptions;
  /**
   * What the emulator knows from the start: organizations, workspaces, members, labels,
   * credentials, compute envs, pipelines, secrets, datasets and runs. `emulator.state` adds
   * more later. Default: only the user, with nothing in the personal workspace.
   */
  seed?: Seed;
  /**
   * Sampled answers send `null` for about half of the properties the schema marks nullable
   * and does not require, as the service does (its Java serializer writes absent values as
   * null); false samples every property. Default true.
   */
  nulls?: boolean;
  /**
   * When true, each describe of an active run moves it one step (`state.runs.advance`), and
   * each describe of a compute env being created makes it AVAILABLE, and each describe of a
   * studio starting or stopping makes it running or stopped, so code that polls
   * sees progress without the test stepping it. Default false: tests move runs themselves.
   */
  autoAdvance?: boolean;
  /**
   * Runs that move on their own, for code that follows them through the runs list
   * (`watchRuns`, `seqera-api watch`) rather than describing each. `onList`: each
   * `GET /workflow` moves the active runs it answered one step, after answering (the next poll
   * sees them further on). `everyMs`: each active run takes one step per `everyMs` after it
   * was launched or added (RUNNING after one, a task per step, ended after its last), brought
   * up to date at each request. Default: runs move only as the test (or `autoAdvance`) says.
   */
  runSteps?: { onList?: boolean; everyMs?: number };
  /**
   * The largest request body accepted, in bytes; a larger one gets 413 before it is read
   * (as does any body of a request refused for its token). Default 32 MiB.
   */
  maxBodyBytes?: number;
  /**
   * How many requests `emulator.requests` keeps, the oldest dropped first, so that a
   * long-lived emulator's memory stays bounded; 0 keeps none. Default 10,000.
   */
  requestLogLimit?: number;
  /**
   * How many bytes of request bodies `emulator.requests` keeps, the oldest requests dropped
   * first (the latest is always kept): a few large bodies weigh more than thousands of small
   * requests. Default 64 MiB.
   */
  requestLogBytes?: number;
}
