// server/memory-budget.mjs: the route cache counts the bytes an entry takes in memory, so its budget holds.
import { describe, expect, it } from "vitest";
import { entryBytes } from "../../server/memory-budget.mjs";

const page = (html: string, rsc = 0) => ({
  kind: "APP_PAGE",
  html,
  rscData: Buffer.alloc(rsc),
  segmentData: new Map([["/_tree", Buffer.alloc(100)]]),
});

describe("a route-cache entry's size", () => {
  it("counts a page whose HTML has a character past U+00FF two bytes a character, as V8 stores it", () => {
    const latin = "<p>Weather now - MCP server</p>".repeat(1000);
    const wide = "<p>Weather now — MCP server</p>".repeat(1000);
    const narrow = entryBytes(page(latin, 5_000), "/marketplace/weather-now");
    expect(narrow).toBeGreaterThanOrEqual(latin.length + 5_000 + 100);
    expect(entryBytes(page(wide, 5_000), "/marketplace/weather-now") - narrow).toBeGreaterThanOrEqual(
      wide.length - 100,
    );
  });

  it("counts a data-cache entry by its stored body, and never less than a fixed cost", () => {
    const body = JSON.stringify({ name: "Weather Now", description: "x".repeat(10_000) });
    expect(entryBytes({ kind: "FETCH", data: { headers: {}, body, status: 200, url: "" } }, "k")).toBeGreaterThan(
      body.length,
    );
    expect(entryBytes(undefined, "k")).toBeGreaterThan(0);
  });
});
