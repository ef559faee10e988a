// What the probe stores of a server's answers is bounded (lib/probe/storage-limits), with a quirk saying so.
import { describe, expect, it } from "vitest";
import { Quirks } from "@agora-mcp/protocol";
import { boundForStorage, boundQuirks, STORAGE_LIMITS } from "@/lib/probe/storage-limits";

describe("bounding what is stored", () => {
  it("cuts long lists, long texts and huge schemas, and says so", () => {
    const quirks = new Quirks();
    const tools = Array.from({ length: 150 }, (_, i) => ({
      name: `tool-${i}`,
      description: "d".repeat(2_000),
      inputSchema: { type: "object" } as unknown,
    }));
    tools[0]!.inputSchema = { type: "object", description: "x".repeat(20_000) };
    const bounded = boundForStorage({ tools, pricedItems: [], paymentMethods: [] }, quirks);
    expect(bounded.tools).toHaveLength(STORAGE_LIMITS.tools);
    expect(bounded.tools[0]!.inputSchema).toBeNull();
    expect(bounded.tools[1]!.inputSchema).toEqual({ type: "object" });
    expect(bounded.tools[1]!.description!.length).toBeLessThanOrEqual(STORAGE_LIMITS.text + 1);
    expect(quirks.list()).toEqual([
      "tool list cut to 100 of 150",
      "input schema of `tool-0` larger than 8000 characters, not stored",
    ]);
  });

  it("keeps at most 30 quirks, the last one counting the rest", () => {
    const quirks = new Quirks();
    for (let i = 0; i < 45; i++) quirks.add(`quirk ${i}`);
    const kept = boundQuirks(quirks);
    expect(kept).toHaveLength(30);
    expect(kept.at(-1)).toBe("and 16 more quirks");
  });
});
