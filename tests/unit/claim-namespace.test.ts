import { describe, expect, it } from "vitest";
import { coversHost, hostOf, namespaceOf } from "@/lib/claims/namespace";
import { publishedTokens } from "@/lib/claims/tokens";

describe("namespaceOf: who may claim an upstream name", () => {
  it("reads io.github names as a GitHub account, case-insensitively", () => {
    expect(namespaceOf("io.github.Octo-Cat/weather")).toEqual({
      kind: "github",
      namespace: "io.github.octo-cat",
      account: "octo-cat",
    });
  });
  it("reads reverse-DNS names as their domain, sub-namespaces as subdomains", () => {
    expect(namespaceOf("com.example/search")).toEqual({
      kind: "domain",
      namespace: "com.example",
      domain: "example.com",
    });
    expect(namespaceOf("com.example.api/v2/search")).toEqual({
      kind: "domain",
      namespace: "com.example.api",
      domain: "api.example.com",
    });
  });
  it("refuses a namespace that is not plain ASCII, even one that lower-cases to a real account or domain", () => {
    // U+212A KELVIN SIGN lower-cases to "k": "io.github.\u212Aevin" must not become @kevin's namespace.
    expect("\u212A".toLowerCase()).toBe("k");
    for (const name of [
      "io.github.\u212Aevin/tool",
      "com.\u212Aexample/tool",
      "io.github.caf\u00e9/tool",
      "com.exam\u0440le/tool",
    ]) {
      expect(namespaceOf(name)).toBeNull();
    }
  });
  it("refuses names no rule can prove", () => {
    for (const name of [
      null,
      "weather",
      "/weather",
      "localhost/tool",
      "io.github.bad_name/x",
      "io.github./x",
      "com..example/x",
      "1.0.0.127/x",
      "com.exa mple/x",
      "com.-bad/x",
    ]) {
      expect(namespaceOf(name)).toBeNull();
    }
  });
});

describe("coversHost: a name speaks for a server only where its namespace covers the host", () => {
  const covers = (name: string, url: string) => coversHost(namespaceOf(name)!, hostOf(url));
  it("covers the domain and its subdomains for a reverse-DNS name, nothing else", () => {
    expect(covers("com.victim/weather", "https://weather.victim.com/mcp")).toBe(true);
    expect(covers("com.victim/weather", "https://VICTIM.com./mcp")).toBe(true);
    expect(covers("com.victim/weather", "https://victim.com.attacker.net/mcp")).toBe(false);
    expect(covers("com.victim/weather", "https://notvictim.com/mcp")).toBe(false);
    expect(covers("com.victim.api/weather", "https://victim.com/mcp")).toBe(false);
  });
  it("covers only the account's own GitHub Pages host for an io.github name", () => {
    expect(covers("io.github.Alice/tool", "https://alice.github.io/tool/mcp")).toBe(true);
    expect(covers("io.github.alice/tool", "https://weather.victim.com/mcp")).toBe(false);
    expect(covers("io.github.alice/tool", "https://bob.github.io/mcp")).toBe(false);
    expect(covers("io.github.alice/tool", "https://alice.github.io.evil.net/mcp")).toBe(false);
  });
  it("covers nothing for an unreadable URL", () => {
    expect(hostOf("not a url")).toBeNull();
    expect(coversHost(namespaceOf("com.victim/x")!, null)).toBe(false);
  });
});

describe("publishedTokens", () => {
  it("finds claim records in a published text, at most five, without duplicates", () => {
    const a = "a".repeat(43);
    const b = "b".repeat(43);
    expect(publishedTokens(`agora-claim=${a}\nagora-claim=${a} agora-claim=${b}`)).toEqual([a, b]);
    expect(publishedTokens("agora-claim=short")).toEqual([]);
    expect(
      publishedTokens(Array.from({ length: 9 }, (_, i) => `agora-claim=${String(i).repeat(40)}`).join("\n")),
    ).toHaveLength(5);
  });
});
