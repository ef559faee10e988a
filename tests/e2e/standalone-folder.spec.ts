// The deployable folder (.next/standalone, the one docs/production.md says to copy anywhere) as the suite's own
// `npm run build` left it: only what the server runs. Nothing local (.data/ holds the development auth secret and
// the embedded database), no test, doc, bench or sandbox file, no source. Next's file trace is read too: a path
// built at run time once made it trace the whole checkout, which scripts/standalone.mjs then had to delete again.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { productionStart } from "../support/production-start";

test.skip(({ isMobile }) => isMobile, "a folder, not a layout: one project is enough");

const root = process.cwd();
const standalone = productionStart().dir;

// Every project file (outside node_modules and .next) the server may carry, by path from the project root.
const ALLOWED: RegExp[] = [
  /^server\.js$/, // Next's server
  /^package\.json$/,
  /^migrate\.mjs$/, // scripts/migrate.ts bundled by scripts/standalone.mjs
  /^server\/[\w-]+\.mjs$/, // the preloads the start command names
  /^lib\/cache\/route-cache-handler\.mjs$/, // next.config.mjs's cacheHandler, loaded by the server
  /^db\/migrations\/\d{4}_[\w-]+\.sql$/,
  /^db\/migrations\/meta\/[\w-]+\.json$/,
  /^dist\/downloads\/[\w.-]+\.(tgz|mcpb|json)$/, // the tarballs /downloads serves
  /^public\//,
];

function files(dir: string, skip: (relative: string) => boolean, base = dir): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const relative = path.relative(base, full);
    if (skip(relative)) continue;
    if (entry.isDirectory()) found.push(...files(full, skip, base));
    else found.push(relative);
  }
  return found;
}

test("the standalone folder holds only what the server runs", () => {
  expect(fs.existsSync(path.join(standalone, "server.js")), "run `npm run build` first").toBe(true);
  const outside = files(standalone, (relative) => relative === "node_modules" || relative === ".next");
  const unexpected = outside.filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
  expect(unexpected, "files in .next/standalone the server does not run").toEqual([]);
  // What must never ship, named so a failure says which: local state, tests, docs, benchmarks, the sandbox, sources.
  for (const forbidden of [
    ".data",
    "tests",
    "docs",
    "bench",
    "sandbox",
    "app",
    "components",
    "content",
    "examples",
    ".env",
    ".env.local",
  ]) {
    expect(fs.existsSync(path.join(standalone, forbidden)), forbidden).toBe(false);
  }
  // No TypeScript source anywhere, the traced node_modules and Next's output included (packages ship JavaScript).
  const sources = files(standalone, () => false).filter(
    (file) => /\.(tsx?|mdx)$/.test(file) && !file.endsWith(".d.ts"),
  );
  expect(sources).toEqual([]);
});

test("Next's file trace names no project file the server does not run", () => {
  // Each route's .nft.json lists the files its server code needs; a whole-project trace shows here as app/, lib/,
  // .data/ … entries, whatever scripts/standalone.mjs later removes.
  const traces = files(
    path.join(root, ".next"),
    (relative) => relative === "standalone" || relative === "cache",
  ).filter((file) => file.endsWith(".nft.json"));
  expect(traces.length).toBeGreaterThan(10);
  const named = new Set<string>();
  for (const trace of traces) {
    const absolute = path.join(root, ".next", trace);
    const { files: listed } = JSON.parse(fs.readFileSync(absolute, "utf8")) as { files: string[] };
    for (const file of listed) {
      const relative = path.relative(root, path.resolve(path.dirname(absolute), file));
      if (!relative.startsWith("node_modules/") && !relative.startsWith(".next/")) named.add(relative);
    }
  }
  const unexpected = [...named].filter((file) => !ALLOWED.some((pattern) => pattern.test(file)));
  expect(unexpected, "project files Next traced into the server").toEqual([]);
});

test("a production start without AUTH_SECRET stops at its migrate step, before migrating or serving", () => {
  const start = productionStart();
  const data = fs.mkdtempSync(path.join(os.tmpdir(), "agora-no-secret-"));
  try {
    // No NODE_ENV and no AUTH_SECRET, as a person starts it.
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: os.homedir(),
      PGLITE_DIR: path.join(data, "pglite"),
      SITE_URL: "https://agora.example",
    } as unknown as NodeJS.ProcessEnv;
    const migrated = spawnSync(start.migrate[0]!, start.migrate.slice(1), {
      cwd: start.dir,
      env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(migrated.status).toBe(1);
    expect(`${migrated.stdout}${migrated.stderr}`).toContain("AUTH_SECRET");
    expect(`${migrated.stdout}${migrated.stderr}`).not.toContain("Migrations applied");
    // Nothing was created, let alone migrated.
    expect(fs.existsSync(path.join(data, "pglite"))).toBe(false);
  } finally {
    fs.rmSync(data, { recursive: true, force: true });
  }
});
