// This package's own tests (test/*.test.ts): they import the package by its name, so they run against the built
// dist/ (npm test builds it first), and never the app's code. Neither the tests nor this file are published.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "protocol",
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
  },
});
