// What pages, guides and snippets name that differs from one deployment to the next: the registry agents use,
// the install lines of the client and the provider kit, the contact address. Every URL is this deployment's own
// origin (SITE_URL); pages prerendered at build time carry the build's, which the server rewrites to its own when it
// starts (server/deployment-rewrite.mjs). Read through pageSettings(), so a build
// renders them without the server's secrets.
import { pageSettings } from "@/lib/env";
import { siteUrl } from "@/lib/site";
import type { ClientConfig } from "@/lib/downloads/client-config";
import { DOWNLOAD_PACKAGES, downloadPackage, type DownloadId } from "@/lib/downloads/packages";

/** The registry's API base, what the client's AGORA_REGISTRY_URL names (its MCP endpoint is `{this}/mcp`). */
export function registryUrl(): string {
  return `${siteUrl()}/api`;
}

/** This site's tarball of a package: the stable name, or one version's. */
export function downloadUrl(id: DownloadId, version?: string): string {
  return `${siteUrl()}/downloads/${downloadPackage(id).stem}${version ? `-${version}` : ""}.tgz`;
}

/** What `npx -y …` and `npm install …` take: the package's name once it is on a registry, else this site's tarball. */
export function packageSpec(id: DownloadId): string {
  return pageSettings().PACKAGES_ON_REGISTRY ? downloadPackage(id).packageName : downloadUrl(id);
}

export function contactEmail(): string {
  return pageSettings().CONTACT_EMAIL;
}

// The desktop-assistant config block. One source for every block a page, guide or the sandbox shows: agentConfig()
// builds it from its parts, and clientConfig() fills them with this deployment's. A site the sandbox runs
// (SANDBOX_RPC_URL, SANDBOX_WALLET_FILE) adds its chain and funded buyer wallet, so the block a reader copies there
// works as it stands.

export type { ClientConfig };

export type AgentConfigParts = {
  /** What `npx -y` runs: the package name or a tarball's URL. */
  clientPackage: string;
  registryUrl: string;
  /** A local chain (the sandbox's); the client's default is Base's public node. */
  rpcUrl?: string;
  /** A funded wallet file (the sandbox's buyer); the client's default is ~/.agora/wallet.json. */
  walletFile?: string;
  /** Lets the client buy from a server by its URL, unlisted (the Local Testing Guide). */
  directAccess?: boolean;
};

export function agentConfig(parts: AgentConfigParts): ClientConfig {
  const env: Record<string, string> = { AGORA_REGISTRY_URL: parts.registryUrl };
  if (parts.rpcUrl) env.AGORA_RPC_URL = parts.rpcUrl;
  if (parts.walletFile) env.AGORA_WALLET_FILE = parts.walletFile;
  if (parts.directAccess) env.ENABLE_UNSAFE_DIRECT_ACCESS = "true";
  Object.assign(env, { ENABLE_REQUEST_ELICITATION: "true", ELICITATION_THRESHOLD: "0.01" });
  return { mcpServers: { agora: { command: "npx", args: ["-y", parts.clientPackage], env } } };
}

/** This site's block; beside the sandbox, with its chain and buyer wallet. */
export function clientConfig({ directAccess = false } = {}): ClientConfig {
  const { SANDBOX_RPC_URL, SANDBOX_WALLET_FILE } = pageSettings();
  return agentConfig({
    clientPackage: packageSpec("client"),
    registryUrl: registryUrl(),
    rpcUrl: SANDBOX_RPC_URL,
    walletFile: SANDBOX_WALLET_FILE,
    directAccess,
  });
}

export function clientConfigFor(options: { directAccess?: boolean } = {}): string {
  return JSON.stringify(clientConfig(options), null, 2);
}

/** True on a site the sandbox runs: its pages' blocks name the sandbox's chain and wallet. */
export function besideSandbox(): boolean {
  return Boolean(pageSettings().SANDBOX_RPC_URL);
}

const PLACEHOLDERS: Record<string, () => string> = {
  SITE_URL: siteUrl,
  // The agent config block (lib/listings/presenters/connect-config.ts): one source for every guide that shows it.
  AGENT_CONFIG: () => clientConfigFor(),
  AGENT_CONFIG_DIRECT_ACCESS: () => clientConfigFor({ directAccess: true }),
  ...Object.fromEntries(DOWNLOAD_PACKAGES.map((p) => [`${p.id.toUpperCase()}_PACKAGE`, () => packageSpec(p.id)])),
};

/**
 * Guides are static MDX, so their code names the deployment through placeholders filled at render:
 * `{SITE_URL}`, `{CLIENT_PACKAGE}`, `{SERVER_PACKAGE}` and the whole agent config block, `{AGENT_CONFIG}` (with
 * direct access: `{AGENT_CONFIG_DIRECT_ACCESS}`); the package READMEs use `{SITE_URL}` too.
 */
export function fillPlaceholders(text: string): string {
  return text.replace(/\{([A-Z_]+)\}/g, (whole, name: string) =>
    Object.hasOwn(PLACEHOLDERS, name) ? PLACEHOLDERS[name]!() : whole,
  );
}
