// The site's copy and the client agree: every client setting a guide, the README or the detail pages' config
// block names is one the client reads, and the config block as printed starts a valid client.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSettings, SETTING_NAMES } from "@agora-mcp/client";
import { SITE_SETTING_NAMES } from "@/lib/env";
import { clientConfig } from "@/lib/listings/presenters/connect-config";

const SETTING = /\b(?:AGORA|ENABLE|ELICITATION|UNSAFE)_[A-Z_]+\b/g;

function files(dir: string, ext: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(ext))
    .map((f) => path.join(dir, f));
}

describe("client settings in the site's copy", () => {
  it("names only settings the client reads, in every guide and README", () => {
    const sources = [...files("content", ".mdx"), ...files("docs", ".md"), "README.md", "packages/client/README.md"];
    const named = new Map<string, string>();
    for (const file of sources)
      for (const name of fs.readFileSync(file, "utf8").match(SETTING) ?? []) named.set(name, file);
    expect(named.size).toBeGreaterThan(3);
    // The README also documents the site's own settings (UNSAFE_TEST_MODE shares the client's prefix).
    const unknown = [...named].filter(
      ([name]) => !(SETTING_NAMES as readonly string[]).includes(name) && !SITE_SETTING_NAMES.includes(name),
    );
    expect(unknown).toEqual([]);
  });

  it("starts a valid client from the config block the detail pages print", () => {
    const { env, args } = clientConfig().mcpServers.agora!;
    expect(args).toEqual(["-y", expect.stringMatching(/\/downloads\/agora-mcp-client\.tgz$/)]);
    for (const name of Object.keys(env)) expect(SETTING_NAMES).toContain(name);
    const settings = loadSettings(env);
    expect(settings.elicitation).toBe(true);
    expect(settings.thresholdUnits).toBe(10_000n);
  });
});
