import type { SerializedError } from "vitest";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends the run with one plain line, `Tests: N passed, N failed, N skipped`, which CI reads
 * whatever the test runner (vitest's own summary is not in that form). Errors outside any test
 * (a failed beforeAll, whose tests count as skipped; a process warning) fail the run too, so the
 * line adds `, N errors` when there are any.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<SerializedError>,
  ): void {
    const count = (state: "passed" | "failed" | "skipped") =>
      modules.reduce((n, m) => n + [...m.children.allTests(state)].length, 0);
    const errors = modules.reduce((n, m) => n + m.errors().length, unhandledErrors.length);
    console.log(
      `Tests: ${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped` +
        (errors > 0 ? `, ${errors} error${errors === 1 ? "" : "s"}` : ""),
    );
  }
}
