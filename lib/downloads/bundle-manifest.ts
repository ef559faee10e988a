// The MCP bundle (.mcpb) of the agent client: the file Claude Desktop installs with a double-click. A zip with a
// manifest.json (MCPB manifest spec 0.3, github.com/modelcontextprotocol/mcpb MANIFEST.md) and the client as one
// self-contained script, so the host runs it with its own Node.js and nothing is fetched from a registry.
// The settings a person may change are the manifest's user_config, their defaults the config block's own values
// (lib/deployment.ts), so the bundle and the block beside the "Add to Claude Desktop" button carry the same settings.
import type { ClientConfig } from "@/lib/downloads/client-config";

/** The stable file name under /downloads; the build writes no versioned copy (a bundle is opened, not pinned). */
export const BUNDLE_FILE = "agora-mcp-client.mcpb";
/** The client inside the bundle: an ES module whatever package.json is (or is not) around it. */
export const BUNDLE_ENTRY = "server/index.mjs";
const MCPB_MANIFEST_VERSION = "0.3";
/** The client's variable that carries the bundle's own description of its options (packages/client/src/settings.ts). */
const BUNDLE_SETTINGS_VARIABLE = "AGORA_BUNDLE_SETTINGS";

type UserConfigOption = {
  type: "string" | "boolean" | "file";
  title: string;
  description: string;
  required: boolean;
  default?: string | boolean;
  sensitive?: boolean;
};

type Setting = {
  env: string;
  key: string;
  type: UserConfigOption["type"];
  title: string;
  description: string;
  fallback?: string;
};

// Every user-facing variable of the client (packages/client/src/settings.ts); the block's value is the default when it
// names one, else the client's own default. A variable only the sandbox's block names (its chain) is offered only there.
const SETTINGS: readonly Setting[] = [
  {
    env: "AGORA_REGISTRY_URL",
    key: "registry_url",
    type: "string",
    title: "Registry URL",
    description: "Where the client looks up paid MCP servers.",
  },
  {
    env: "ENABLE_REQUEST_ELICITATION",
    key: "ask_before_paying",
    type: "boolean",
    title: "Ask before paying",
    description: "Ask you before any purchase at or above the threshold.",
    fallback: "true",
  },
  {
    env: "ELICITATION_THRESHOLD",
    key: "confirmation_threshold",
    type: "string",
    title: "Confirmation threshold, in USDC",
    description: "Purchases at or above this amount need your yes.",
    fallback: "0.01",
  },
  {
    env: "AGORA_MAX_PER_PURCHASE",
    key: "max_per_purchase",
    type: "string",
    title: "Most per purchase, in USDC",
    description:
      "The client refuses any single purchase above this. Left at its default, it drops to the daily cap when you set that lower.",
    fallback: "0.50",
  },
  {
    env: "AGORA_DAILY_CAP",
    key: "daily_cap",
    type: "string",
    title: "Daily cap, in USDC",
    description: "The most the client spends in a UTC day.",
    fallback: "1.00",
  },
  {
    env: "AGORA_WALLET_FILE",
    key: "wallet_file",
    type: "file",
    title: "Wallet file",
    description: "The wallet's key file; created on first start if it does not exist.",
    fallback: "${HOME}/.agora/wallet.json",
  },
  {
    env: "AGORA_RPC_URL",
    key: "rpc_url",
    type: "string",
    title: "Chain RPC URL",
    description: "The node the client reads the chain from.",
  },
  {
    env: "ENABLE_UNSAFE_DIRECT_ACCESS",
    key: "direct_access",
    type: "boolean",
    title: "Buy from unlisted servers",
    description: "Let the agent pay a server by its URL, unlisted (for testing your own server).",
  },
];

type BundleManifest = {
  manifest_version: string;
  name: string;
  display_name: string;
  version: string;
  description: string;
  long_description: string;
  author: { name: string; url: string };
  homepage: string;
  documentation: string;
  license: string;
  keywords: string[];
  server: {
    type: "node";
    entry_point: string;
    mcp_config: { command: string; args: string[]; env: Record<string, string> };
  };
  tools_generated: boolean;
  compatibility: { platforms: string[]; runtimes: { node: string } };
  user_config: Record<string, UserConfigOption>;
};

/** The block's one server entry (`agora`). */
export function blockServer(config: ClientConfig): ClientConfig["mcpServers"][string] {
  const [entry] = Object.values(config.mcpServers);
  if (!entry) throw new Error("The config block names no server");
  return entry;
}

export function bundleManifest({
  config,
  version,
  siteUrl,
  siteName,
}: {
  config: ClientConfig;
  version: string;
  siteUrl: string;
  siteName: string;
}): BundleManifest {
  const blockEnv = blockServer(config).env;
  const unknown = Object.keys(blockEnv).filter((name) => !SETTINGS.some((s) => s.env === name));
  if (unknown.length)
    throw new Error(
      `The config block names ${unknown.join(", ")}, which the bundle does not offer: add it to SETTINGS`,
    );
  const env: Record<string, string> = {};
  const userConfig: Record<string, UserConfigOption> = {};
  // The host passes every option, changed or not: the client learns each one's label and default from this, so an
  // option left at its default gives way to a limit the person set (a daily cap below the default per-purchase
  // maximum) and a message names the option as the person sees it.
  const described: Record<string, { label: string; default: string }> = {};
  for (const setting of SETTINGS) {
    const value = blockEnv[setting.env] ?? setting.fallback;
    if (value === undefined) continue;
    env[setting.env] = `\${user_config.${setting.key}}`;
    userConfig[setting.key] = {
      type: setting.type,
      title: setting.title,
      description: setting.description,
      required: true,
      default: setting.type === "boolean" ? value === "true" : value,
    };
    described[setting.env] = { label: setting.title, default: value };
  }
  env[BUNDLE_SETTINGS_VARIABLE] = JSON.stringify(described);
  return {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: "agora-mcp-client",
    display_name: `${siteName} wallet`,
    version,
    description:
      "Gives your assistant a USDC wallet: it finds paid MCP servers in the registry and pays them over x402, within the caps you set.",
    long_description: `The ${siteName} client runs on your computer. It searches ${siteUrl} for paid MCP tool servers and pays them per call in USDC from a wallet it keeps on this machine. The first start creates the wallet and prints its address; fund it from ${siteUrl}/wallet/{your address}.`,
    author: { name: siteName, url: siteUrl },
    homepage: siteUrl,
    documentation: `${siteUrl}/getting-started`,
    license: "MIT",
    keywords: ["mcp", "x402", "usdc", "wallet", "payments"],
    server: {
      type: "node",
      entry_point: BUNDLE_ENTRY,
      mcp_config: { command: "node", args: [`\${__dirname}/${BUNDLE_ENTRY}`], env },
    },
    tools_generated: true,
    compatibility: { platforms: ["darwin", "win32", "linux"], runtimes: { node: ">=20.9.0" } },
    user_config: userConfig,
  };
}
