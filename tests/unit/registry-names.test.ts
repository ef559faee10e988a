import { describe, expect, it } from "vitest";
import { decodeRegistryCursor, encodeRegistryCursor, parseServerPath } from "@/lib/registry/registry-api";
import { slugFromRegistryName, truncate } from "@/lib/listings/presenters/server-json";
import { officialSchema } from "../support/official-registry";

describe("registry names, paths and text limits", () => {
  it("truncates to the schema's limit in code points, at a word break, with an ellipsis", () => {
    expect(truncate("short text", 100)).toBe("short text");
    const long = "word ".repeat(40);
    const cut = truncate(long, 100);
    expect(Array.from(cut).length).toBeLessThanOrEqual(100);
    expect(cut).toMatch(/word…$/);
    const emoji = "🚀".repeat(150);
    expect(Array.from(truncate(emoji, 100))).toHaveLength(100);
    expect(truncate("a   b\n\nc", 100)).toBe("a b c");
  });

  it("maps only Agora's namespace back to a slug", () => {
    expect(slugFromRegistryName("dev.agora-mcp/boba-order-bot")).toBe("boba-order-bot");
    expect(slugFromRegistryName("io.github.x/boba-order-bot")).toBeNull();
    expect(slugFromRegistryName("dev.agora-mcp/Bad_Slug")).toBeNull();
    expect(
      officialSchema.isServerJson({ name: "dev.agora-mcp/boba-order-bot", description: "d", version: "1.0.0" }),
    ).toBe(true);
  });

  it("reads server paths with the name encoded or not, and the first API's bare id", () => {
    // A name is kept whole and looked up as stored: never parsed into a slug.
    expect(parseServerPath(["dev.agora-mcp%2Fx", "versions", "latest"])).toEqual({
      key: "dev.agora-mcp/x",
      byName: true,
      version: "latest",
      listVersions: false,
    });
    expect(parseServerPath(["dev.agora-mcp", "x", "versions"])).toEqual({
      key: "dev.agora-mcp/x",
      byName: true,
      version: null,
      listVersions: true,
    });
    expect(parseServerPath(["dev.agora-mcp/x"])).toEqual({
      key: "dev.agora-mcp/x",
      byName: true,
      version: null,
      listVersions: false,
    });
    expect(parseServerPath(["some-id"])).toEqual({ key: "some-id", byName: false, version: null, listVersions: false });
    expect(parseServerPath(["dev.agora-mcp/x", "versions", "1.0.0", "extra"])).toBeNull();
    // Another namespace is an imported listing's upstream name, looked up as it is (a 404 when none has it).
    expect(parseServerPath(["other.ns/x"])).toEqual({
      key: "other.ns/x",
      byName: true,
      version: null,
      listVersions: false,
    });
    expect(parseServerPath(["other.ns%2Fx", "versions", "latest"])).toEqual({
      key: "other.ns/x",
      byName: true,
      version: "latest",
      listVersions: false,
    });
    expect(parseServerPath(["/x"])).toBeNull();
  });

  it("round-trips registry cursors and refuses forged ones", () => {
    expect(decodeRegistryCursor(encodeRegistryCursor("boba-order-bot"))).toBe("boba-order-bot");
    expect(decodeRegistryCursor("bogus")).toBeNull();
    expect(decodeRegistryCursor(Buffer.from("s:'; drop table").toString("base64url"))).toBeNull();
  });
});
