import { describe, expect, it } from "vitest";
import { agentConfig, type ClientConfig } from "@/lib/deployment";
import { bundleManifest } from "@/lib/downloads/bundle-manifest";
import { installLinks } from "@/lib/downloads/install-links";
import { defaultEnvOf, mcpbManifestSchema, undeclaredUserConfig } from "../support/mcpb-manifest";

const SITE = "https://agora.example";
const plain = agentConfig({ clientPackage: `${SITE}/downloads/agora-mcp-client.tgz`, registryUrl: `${SITE}/api` });
const sandbox = agentConfig({
  clientPackage: `${SITE}/downloads/agora-mcp-client.tgz`,
  registryUrl: `${SITE}/api`,
  rpcUrl: "http://127.0.0.1:8545",
  walletFile: "/tmp/sandbox/wallet.json",
});

describe("install links", () => {
  for (const [label, config] of [
    ["a deployment's block", plain],
    ["a sandbox's block", sandbox],
  ] as const) {
    it(`carry ${label}'s command, arguments and settings`, () => {
      const { command, args, env } = config.mcpServers.agora!;
      const links = installLinks(config);
      const cursor = new URL(links.cursor);
      expect(cursor.searchParams.get("name")).toBe("agora");
      expect(JSON.parse(Buffer.from(cursor.searchParams.get("config")!, "base64").toString())).toEqual({
        command,
        args,
        env,
      });
      expect(JSON.parse(decodeURIComponent(links.vscode.replace(/^vscode:mcp\/install\?/, "")))).toEqual({
        name: "agora",
        type: "stdio",
        command,
        args,
        env,
      });
    });

    it(`make a valid bundle manifest whose defaults are ${label}'s settings`, () => {
      const manifest = mcpbManifestSchema.parse(
        bundleManifest({ config, version: "0.1.0", siteUrl: SITE, siteName: "Agora" }),
      );
      expect(undeclaredUserConfig(manifest)).toEqual([]);
      const env = defaultEnvOf(manifest, "/home/someone");
      for (const [name, value] of Object.entries(config.mcpServers.agora!.env)) expect(env[name], name).toBe(value);
      // What the block leaves to the client's defaults is offered with the client's defaults.
      expect(env).toMatchObject({ AGORA_DAILY_CAP: "1.00", AGORA_MAX_PER_PURCHASE: "0.50" });
      if (!config.mcpServers.agora!.env.AGORA_WALLET_FILE)
        expect(env.AGORA_WALLET_FILE).toBe("/home/someone/.agora/wallet.json");
      expect(manifest.user_config?.ask_before_paying?.default).toBe(true);
    });
  }

  it("refuse a block naming a setting the bundle cannot offer", () => {
    const odd: ClientConfig = {
      mcpServers: {
        agora: { ...plain.mcpServers.agora!, env: { ...plain.mcpServers.agora!.env, AGORA_SURPRISE: "1" } },
      },
    };
    expect(() => bundleManifest({ config: odd, version: "0.1.0", siteUrl: SITE, siteName: "Agora" })).toThrow(
      /AGORA_SURPRISE/,
    );
  });
});
