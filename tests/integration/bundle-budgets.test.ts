// Uses no database: CI's PostgreSQL pass leaves it out (vitest.config.ts).
// The MCP bundle's settings form, as a person fills it in Claude Desktop: "Daily cap, in USDC" set to 0.30 and every
// other option left as the form shows it. The bundle is built as the site builds it (scripts/support/mcpb.ts), its
// manifest validated, the host's substitution done as MCPB says (every `${user_config.KEY}` gets the option's value,
// changed or not), and its own bundled client started with node alone: the wallet starts, its maximum per purchase
// lowered to the cap. Two options the person set that contradict each other stop it, naming both by their labels.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentConfig } from "@/lib/deployment";
import { BUNDLE_FILE } from "@/lib/downloads/bundle-manifest";
import { writeClientBundle } from "@/scripts/support/mcpb";
import { mcpbManifestSchema, type McpbManifest } from "../support/mcpb-manifest";

const SITE = "http://127.0.0.1:9";
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-bundle-budgets-"));
const dir = path.join(tmp, "bundle");
let manifest: McpbManifest;

beforeAll(async () => {
  // A sandbox's block: its chain on loopback (a port nobody answers on), so the client reads no public network.
  const config = agentConfig({
    clientPackage: `${SITE}/downloads/agora-mcp-client.tgz`,
    registryUrl: `${SITE}/api`,
    rpcUrl: "http://127.0.0.1:9",
  });
  await writeClientBundle({ out: tmp, siteUrl: SITE, siteName: "Agora", config });
  const files = unzipSync(new Uint8Array(fs.readFileSync(path.join(tmp, BUNDLE_FILE))));
  manifest = mcpbManifestSchema.parse(JSON.parse(strFromU8(files["manifest.json"]!)));
  for (const [name, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), bytes);
  }
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The option a person finds by its label in the form. */
function optionKey(title: string): string {
  const found = Object.entries(manifest.user_config ?? {}).find(([, o]) => o.title === title);
  expect(found, `an option titled "${title}"`).toBeDefined();
  return found![0];
}

/** What the host runs: node, the bundle's arguments, and its env with each option's value (the person's, or the default). */
function launch(changed: Record<string, string>, home: string) {
  const values = (key: string) => String(changed[key] ?? manifest.user_config?.[key]?.default ?? "");
  const env: Record<string, string> = Object.fromEntries(
    Object.entries(manifest.server.mcp_config.env ?? {}).map(([name, value]) => [
      name,
      value.replace(/\$\{user_config\.([a-z_]+)\}/g, (_, key: string) => values(key)).replaceAll("${HOME}", home),
    ]),
  );
  return {
    command: process.execPath,
    args: manifest.server.mcp_config.args.map((a) => a.replace("${__dirname}", dir)),
    env: { PATH: path.dirname(process.execPath), HOME: home, ...env } as Record<string, string>,
  };
}

function newHome(): string {
  return fs.mkdtempSync(path.join(tmp, "home-"));
}

describe("the bundle's settings form", () => {
  it("labels its amounts as a sentence reads them", () => {
    const titles = Object.values(manifest.user_config ?? {}).map((o) => o.title);
    expect(titles).toEqual(
      expect.arrayContaining(["Confirmation threshold, in USDC", "Most per purchase, in USDC", "Daily cap, in USDC"]),
    );
    expect(titles.filter((t) => /\(USDC\)/.test(t))).toEqual([]);
  });

  it("Daily cap 0.30, the rest as the form shows it: the wallet starts, its maximum per purchase lowered to $0.30", async () => {
    const home = newHome();
    const transport = new StdioClientTransport({
      ...launch({ [optionKey("Daily cap, in USDC")]: "0.30" }, home),
      cwd: dir,
      stderr: "pipe",
    });
    let log = "";
    transport.stderr?.on("data", (d: Buffer) => (log += d.toString()));
    const client = new Client({ name: "claude-desktop-stand-in", version: "1.0.0" });
    try {
      await client.connect(transport).catch((error: unknown) => {
        throw new Error(`the bundle did not start: ${log || String(error)}`);
      });
      const result = (await client.callTool({ name: "wallet", arguments: {} })) as CallToolResult;
      const data = result.structuredContent as {
        dailyCap: string;
        maxPerPurchase: string;
        usdc: string | null;
        policy: { rules: string[] };
      };
      expect(data).toMatchObject({ dailyCap: "0.30", maxPerPurchase: "0.30", usdc: null });
      expect(data.policy.rules).toContain(
        'maxPerPurchase (the default, lowered to "Daily cap, in USDC" in the bundle\'s settings): at most $0.30 a purchase',
      );
      expect(log).toMatch(/; ready\.$/m);
    } finally {
      await client.close();
    }
  });

  it("Daily cap 0.30 and Most per purchase 0.40, both set by the person: refused, naming both labels", () => {
    const home = newHome();
    const { command, args, env } = launch(
      { [optionKey("Daily cap, in USDC")]: "0.30", [optionKey("Most per purchase, in USDC")]: "0.40" },
      home,
    );
    const child = spawnSync(command, args, {
      env: env as NodeJS.ProcessEnv,
      cwd: dir,
      input: "",
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(child.status).toBe(1);
    expect(child.stderr).toContain(
      `"Daily cap, in USDC" in the bundle's settings ($0.30) is less than "Most per purchase, in USDC" in the bundle's settings ($0.40): no purchase at that maximum could pass the budget.`,
    );
    expect(fs.existsSync(path.join(home, ".agora", "wallet.json"))).toBe(false);
  });

  it("shows that refusal to the host through the wallet tool, not just a closed connection", async () => {
    const home = newHome();
    const transport = new StdioClientTransport({
      ...launch({ [optionKey("Daily cap, in USDC")]: "0.30", [optionKey("Most per purchase, in USDC")]: "0.40" }, home),
      cwd: dir,
      stderr: "pipe",
    });
    const client = new Client({ name: "claude-desktop-stand-in", version: "1.0.0" });
    try {
      await client.connect(transport);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["wallet"]);
      const result = (await client.callTool({ name: "wallet", arguments: {} })) as CallToolResult;
      expect(result.isError).toBe(true);
      const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      expect(text).toMatch(
        /^The Agora wallet did not start: Spending limits that contradict each other: "Daily cap, in USDC" in the bundle's settings \(\$0\.30\) is less than "Most per purchase, in USDC"/,
      );
      expect(fs.existsSync(path.join(home, ".agora", "wallet.json"))).toBe(false);
    } finally {
      await client.close();
    }
  });
});
