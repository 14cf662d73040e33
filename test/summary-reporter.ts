import type { Reporter, TestModule } from "vitest/node";

/**
 * Ends the run with one plain line, `Tests: N passed, N failed, N skipped`, which CI reads
 * whatever the test runner (vitest's own summary is not in that form).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const count = (state: "passed" | "failed" | "skipped") =>
      modules.reduce((n, m) => n + [...m.children.allTests(state)].length, 0);
    console.log(
      `Tests: ${count("passed")} passed, ${count("failed")} failed, ${count("skipped")} skipped`,
    );
  }
}
