/**
 * A process warning fails the test file that caused it: printed among the results, no one reads
 * it, and it is the sign of a leak (MaxListenersExceededWarning) or of a deprecated use. A test
 * that provokes one on purpose listens for it or mocks `process.emitWarning`.
 */
const installed = Symbol.for("seqera-api-client.test.failOnWarning");
const state = globalThis as { [installed]?: true };
// Once per process, however many test files it runs.
if (!state[installed]) {
  state[installed] = true;
  process.on("warning", (warning) => {
    // A plain Error: the warning's own fields (a MaxListeners warning's emitter) would be
    // serialized into the report whole.
    throw new Error(`${warning.name}: ${warning.message}`);
  });
}
