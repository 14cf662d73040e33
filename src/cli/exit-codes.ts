/**
 * The exit codes a CI job can branch on; documented in the README's CLI section. Kept apart
 * from the error classes so that importing the table loads nothing else.
 */
export const EXIT = {
  /** The command did what it was asked (a run it waited for SUCCEEDED). */
  ok: 0,
  /** A run it launched, waited for or watched ended FAILED, CANCELLED or UNKNOWN. */
  runFailed: 1,
  /** Bad input: usage, configuration, or a request the service refused as invalid (400). */
  usage: 2,
  /** A wait or a request timed out. */
  timeout: 3,
  /** Authentication: the token is missing its rights, invalid or expired (401/403). */
  auth: 4,
  /** Any other failure: another HTTP error, no response, a response that cannot be read. */
  failure: 5,
  /** plan --detailed-exitcode: the plan has changes to apply. */
  pending: 6,
  /** Stopped by SIGINT (Ctrl-C): 128 + 2, as a shell reports a process the signal killed. */
  sigint: 130,
  /** Stopped by SIGTERM: 128 + 15. */
  sigterm: 143,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** What each code means, for --help and the README's table. */
export const EXIT_MEANINGS: Readonly<Record<ExitCode, string>> = {
  [EXIT.ok]: "success (a run waited for SUCCEEDED; watch: every run it saw end SUCCEEDED)",
  [EXIT.runFailed]:
    "the run (watch: a run it saw) ended FAILED, CANCELLED or UNKNOWN; compute-envs wait: ERRORED, INVALID...",
  [EXIT.usage]: "bad input: usage, configuration, or a 400 from the service; nothing to retry",
  [EXIT.timeout]: "timed out: --timeout, or a request's attempts timing out",
  [EXIT.auth]: "authentication: token missing rights, invalid or expired (401/403)",
  [EXIT.failure]: "any other failure: HTTP error, no response, unreadable response",
  [EXIT.pending]: "plan --detailed-exitcode: changes to apply (0: nothing to do)",
  [EXIT.sigint]: "interrupted by SIGINT (Ctrl-C); a run already launched is printed first",
  [EXIT.sigterm]: "stopped by SIGTERM; a run already launched is printed first",
};
