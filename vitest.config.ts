import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // The growth tests (test/helpers/growth.ts) collect garbage before each timed run, so that
    // what earlier tests in the worker left for the collector is not billed to the large side.
    execArgv: ["--expose-gc"],
  },
});
