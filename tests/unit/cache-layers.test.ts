// lib/cache/layers.ts is the one list of the caches a public read passes: each line must name a cache that is
// where it says, and every cache in the site's code must have a line (or be one of the process memos).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CACHE_LAYERS, PROCESS_MEMOS } from "@/lib/cache/layers";

const ROOTS = ["app", "components", "lib", "db", "server", "proxy.ts"];

function sourceFiles(): string[] {
  const out: string[] = [];
  const walk = (p: string) => {
    if (/(^|\/)(node_modules|migrations)(\/|$)/.test(p)) return;
    if (fs.statSync(p).isDirectory()) for (const entry of fs.readdirSync(p)) walk(path.join(p, entry));
    else if (/\.(ts|tsx|mjs)$/.test(p) && !p.endsWith(".d.ts")) out.push(p);
  };
  ROOTS.forEach(walk);
  return out;
}

// What keeps values between reads: Next's data cache and its tags, React's per-request cache, the in-process result
// cache, an LRU, and a map or weak map held at module level (which outlives every request).
const CONSTRUCTS: [string, RegExp][] = [
  ["unstable_cache", /\bunstable_cache\(/],
  ['"use cache"', /^\s*["']use cache(?::[\w-]+)?["']/m],
  ["cacheTag / cacheLife", /\bcache(?:Tag|Life)\(/],
  ["React's cache", /import\s*\{[^}]*\bcache\b[^}]*\}\s*from\s*["']react["']/],
  ["result cache", /\bcreateResultCache[<(]/],
  ["LRU", /\bnew LRUCache\b/],
  ["module-level map", /^(?:export )?(?:const|let) \w+(?:: [^=]+)? = new (?:Map|WeakMap)\b/m],
];

// Module-level maps that keep no values between reads.
const NOT_CACHES: Record<string, string> = {
  "lib/registry/mcp-server.ts": "toolsByName: an index of a constant list of tools",
  "server/overload.mjs": "byClient: requests in flight per client, counted down as they end",
};

describe("the list of cache layers", () => {
  it("names each cache once, in a file that holds its construct", () => {
    for (const layer of [...CACHE_LAYERS, ...PROCESS_MEMOS]) {
      expect(fs.existsSync(layer.file), `${layer.name}: ${layer.file}`).toBe(true);
      expect(fs.readFileSync(layer.file, "utf8"), `${layer.name}: ${layer.construct} in ${layer.file}`).toContain(
        layer.construct,
      );
    }
    const names = [...CACHE_LAYERS, ...PROCESS_MEMOS].map((l) => l.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it("leaves out no cache the code keeps", () => {
    const listedFiles = new Set([...CACHE_LAYERS, ...PROCESS_MEMOS].map((l) => l.file));
    const missing: string[] = [];
    let found = 0;
    for (const file of sourceFiles()) {
      // The result cache itself (its users are the caches), and the list, which names the constructs.
      if (file === "lib/cache/result-cache.ts" || file === "lib/cache/layers.ts") continue;
      const text = fs.readFileSync(file, "utf8");
      const kinds = CONSTRUCTS.filter(([, pattern]) => pattern.test(text)).map(([kind]) => kind);
      if (kinds.length === 0 || file in NOT_CACHES) continue;
      found++;
      if (!listedFiles.has(file)) missing.push(`${file} (${kinds.join(", ")})`);
    }
    expect(missing, "caches missing from lib/cache/layers.ts").toEqual([]);
    // The search finds the caches the list names (a pattern that matched nothing would pass vacuously).
    expect(found).toBeGreaterThanOrEqual(7);
  });

  it("excuses only files that still hold such a map", () => {
    for (const [file, why] of Object.entries(NOT_CACHES)) {
      expect(
        fs.existsSync(file) && /new (?:Map|WeakMap)\b/.test(fs.readFileSync(file, "utf8")),
        `${file}: ${why}`,
      ).toBe(true);
    }
  });
});
