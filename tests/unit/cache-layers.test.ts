import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { CACHE_LAYERS } from "@/lib/cache/layers";

describe("the list of cache layers", () => {
  it("names files that exist, each once per layer", () => {
    for (const layer of CACHE_LAYERS) expect(fs.existsSync(layer.file), layer.file).toBe(true);
    expect(new Set(CACHE_LAYERS.map((l) => l.name)).size).toBe(CACHE_LAYERS.length);
  });
});
