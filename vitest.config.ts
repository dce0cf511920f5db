import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Growth tests of inputs made of many tiny objects collect garbage before each timed run
    // (test/helpers/growth.ts), so that what earlier tests left is not billed to one side.
    execArgv: ["--expose-gc"],
  },
});
