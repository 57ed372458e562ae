/**
 * Wall-clock limits for tests that run a child process. They only catch a hang: a loaded two-core machine running the
 * whole suite may take several times as long as one test alone (no-network took 42 s alone and over 55 s in the suite),
 * so a limit near the usual time fails a correct program. Speed is measured in benchmarks (docs/benchmarks.md), not here.
 */
export const CHILD_LIMIT_MS = 8 * 60_000;
/** A test that waits for a child gets the child's limit and a minute for its own work. */
export const CHILD_TEST_LIMIT_MS = CHILD_LIMIT_MS + 60_000;
/** One request to a running child (an MCP call, a line on stdout). */
export const REPLY_LIMIT_MS = 3 * 60_000;
