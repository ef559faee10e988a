#!/usr/bin/env node
// Runs npm scripts side by side (vitest and Playwright spend much of their time waiting on servers and
// browsers, so on two cores together they finish well before one after the other), prefixes each line with
// the script's name, and fails if any of them fails.
import { spawn } from "node:child_process";

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error("usage: node scripts/run-parallel.mjs <npm script> [<npm script> ...]");
  process.exit(2);
}

const runs = scripts.map(
  (name) =>
    new Promise((resolve) => {
      const child = spawn("npm", ["run", "--silent", name], { stdio: ["ignore", "pipe", "pipe"], env: process.env });
      for (const [stream, out] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
        let rest = "";
        stream.on("data", (chunk) => {
          const lines = (rest + chunk.toString()).split("\n");
          rest = lines.pop() ?? "";
          for (const line of lines) out.write(`[${name}] ${line}\n`);
        });
        stream.on("end", () => rest && out.write(`[${name}] ${rest}\n`));
      }
      child.on("exit", (code, signal) => {
        const status = code ?? (signal ? 1 : 0);
        console.log(`[${name}] ${status === 0 ? "passed" : `FAILED (exit ${code ?? signal})`}`);
        resolve(status);
      });
    }),
);
const statuses = await Promise.all(runs);
process.exit(statuses.some((s) => s !== 0) ? 1 : 0);
