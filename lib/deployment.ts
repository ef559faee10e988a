// What pages, guides and snippets name that differs from one deployment to the next: the registry agents use,
// the install lines of the client and the provider kit, the contact address. Every URL is this deployment's own
// origin (SITE_URL); pages prerendered at build time carry the build's. Read through pageSettings(), so a build
// renders them without the server's secrets.
import { pageSettings } from "@/lib/env";
import { siteUrl } from "@/lib/site";
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

const PLACEHOLDERS: Record<string, () => string> = {
  SITE_URL: siteUrl,
  ...Object.fromEntries(DOWNLOAD_PACKAGES.map((p) => [`${p.id.toUpperCase()}_PACKAGE`, () => packageSpec(p.id)])),
};

/**
 * Guides are static MDX, so their code names the deployment through placeholders filled at render:
 * `{SITE_URL}`, `{CLIENT_PACKAGE}` and `{SERVER_PACKAGE}` (the package READMEs use `{SITE_URL}` too).
 */
export function fillPlaceholders(text: string): string {
  return text.replace(/\{([A-Z_]+)\}/g, (whole, name: string) => (Object.hasOwn(PLACEHOLDERS, name) ? PLACEHOLDERS[name]!() : whole));
}
