import type { Run } from "seqera-api-client";

/** What a nightly job does next with a run: every status the types list has its case. */
export function nextStep(run: Run): "report" | "retry" | "wait" {
  switch (run.status) {
    case "SUCCEEDED":
      return "report";
    case "FAILED":
    case "CANCELLED":
    case "UNKNOWN":
      return "retry";
    case "SUBMITTED":
    case "RUNNING":
    case null:
    case undefined:
      return "wait";
    default: {
      // Typed `never` here, yet reached: a newer service sends statuses this release does not
      // list. Not an end, as waitForRun treats it; the type-check still names every listed one.
      const unlisted: never = run.status;
      console.warn(`run ${run.id}: status ${String(unlisted)} is newer than this client`);
      return "wait";
    }
  }
}
