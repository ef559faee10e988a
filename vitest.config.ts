import { defineConfig } from "vitest/config";
import fs from "node:fs";
import path from "node:path";

// The workspace packages test themselves (packages/*/test, each with its own vitest.config.ts and `npm test`); the
// root run includes them. They and tests/unit use no database, so a run narrowed by TEST_DRIVERS to drivers other
// than PGlite (CI's second pass, on PostgreSQL, after the first ran everything) leaves them out.
const drivers = process.env.TEST_DRIVERS?.split(",").map((d) => d.trim());
const packageTests = !drivers || drivers.includes("pglite");
// Integration tests that use no database (chain, facilitator and MCP servers only) say so on their first line; a
// PostgreSQL-only pass (CI's second) leaves them out, since the first pass ran them already.
const NO_DATABASE = "// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).";
const integrationDir = path.resolve(import.meta.dirname, "tests/integration");
const noDatabase = packageTests
  ? []
  : fs
      .readdirSync(integrationDir)
      .filter(
        (f) => f.endsWith(".test.ts") && fs.readFileSync(path.join(integrationDir, f), "utf8").startsWith(NO_DATABASE),
      )
      .map((f) => `tests/integration/${f}`);

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // `server-only` throws outside React Server Components; tests run modules directly.
      "server-only": path.resolve(import.meta.dirname, "tests/support/empty.ts"),
    },
  },
  test: {
    projects: [
      // Unit tests touch no database either: a run narrowed away from PGlite leaves them out too.
      {
        extends: true,
        test: {
          name: "app",
          include: [...(packageTests ? ["tests/unit/**/*.test.ts"] : []), "tests/integration/**/*.test.ts"],
          exclude: noDatabase,
        },
      },
      ...(packageTests ? ["packages/*"] : []),
    ],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at a time, each in its own process: most of a file's time is spent waiting on servers, chains and
    // databases it started itself (free ports, fresh databases, temporary directories), so they overlap safely.
    pool: "forks",
    fileParallelism: true,
    maxWorkers: 2,
    // next-auth imports `next/server` without an extension, and mcpay's client entry its own module, which Node's
    // ESM loader refuses; Vite resolves them.
    server: { deps: { inline: ["next-auth", "@auth/core", "mcpay"] } },
  },
});
