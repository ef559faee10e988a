// The packages the site serves as tarballs (built by scripts/build-downloads.ts, served by app/downloads/[file]):
// what each is called on a registry and under /downloads, and the manifest the build writes beside them.
import { z } from "zod";

export type DownloadId = "client" | "server";

export type DownloadPackage = {
  id: DownloadId;
  /** The name on npm, and in the tarball's package.json. */
  packageName: string;
  /** The file name under /downloads without version or extension: `{stem}.tgz`, `{stem}-{version}.tgz`. */
  stem: string;
  /** The workspace package it is built from. */
  dir: string;
};

export const DOWNLOAD_PACKAGES: readonly DownloadPackage[] = [
  { id: "client", packageName: "@agora-mcp/client", stem: "agora-mcp-client", dir: "packages/client" },
  { id: "server", packageName: "@agora-mcp/server", stem: "agora-mcp-server", dir: "packages/server" },
];

/**
 * Where `npm run build` writes the tarballs and their manifest, relative to the app's working directory. Not
 * public/: the route answers unknown versions with a clear 404, and next.config.mjs traces this folder into a
 * standalone build (outputFileTracingIncludes), so it travels with the server.
 */
export const DOWNLOADS_DIR = "dist/downloads";
/**
 * Where `npm run dev` and the sandbox pack theirs (build-downloads --dev): apart from a production build's, whose
 * manifest names the origin its pages were built for (a dev run once overwrote it, and `npm start` then rewrote
 * nothing).
 */
export const DEV_DOWNLOADS_DIR = "dist/downloads-dev";
export const MANIFEST_FILE = "manifest.json";

export const manifestSchema = z.object({
  /** The origin (SITE_URL) the build wrote into the tarballs and the prerendered pages. */
  siteUrl: z.string(),
  /** The contact address (CONTACT_EMAIL) the build wrote into the prerendered pages. */
  contactEmail: z.string().optional(),
  builtAt: z.string(),
  packages: z.array(
    z.object({
      id: z.enum(["client", "server"]),
      packageName: z.string(),
      version: z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/),
      /** The tarball's file name in DOWNLOADS_DIR (the versioned one). */
      file: z.string().regex(/^[a-z0-9-]+-\d[0-9A-Za-z.-]*\.tgz$/),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      size: z.number().int().positive(),
    }),
  ),
  /** The client's MCP bundle for Claude Desktop (lib/downloads/bundle-manifest.ts); absent in a build before it. */
  bundle: z
    .object({
      file: z.string().regex(/^[a-z0-9-]+\.mcpb$/),
      version: z.string(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      size: z.number().int().positive(),
    })
    .optional(),
});

export type DownloadsManifest = z.infer<typeof manifestSchema>;
export type BuiltDownload = DownloadsManifest["packages"][number];

export function downloadPackage(id: DownloadId): DownloadPackage {
  return DOWNLOAD_PACKAGES.find((p) => p.id === id)!;
}
