// Answers GET /downloads/{file}: `{stem}.tgz` is the current build of a package, `{stem}-{version}.tgz` the same
// file by its version, agora-mcp-client.mcpb the client's MCP bundle; anything else, an unknown version included,
// is a 404 that says what is served.
import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ApiError } from "@/lib/errors";
import { BUNDLE_FILE } from "./bundle-manifest";
import { siteUrl } from "@/lib/site";
import { createRewriter, servedTarball } from "@/server/deployment-rewrite.mjs";
import { rewriteBundle } from "./bundle-zip";
import {
  DEV_DOWNLOADS_DIR,
  DOWNLOAD_PACKAGES,
  DOWNLOADS_DIR,
  MANIFEST_FILE,
  manifestSchema,
  type BuiltDownload,
  type DownloadsManifest,
} from "./packages";

const FILE_NAME = /^([a-z0-9-]+?)(?:-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?))?\.tgz$/;

// Not traced from here (that would take in the whole project): next.config.mjs names the folder for the trace.
const builtDir = () =>
  path.join(
    /*turbopackIgnore: true*/ process.cwd(),
    process.env.NODE_ENV === "development" ? DEV_DOWNLOADS_DIR : DOWNLOADS_DIR,
  );
export const builtDownloadsDir = builtDir;

/** The build's manifest (see scripts/build-downloads.ts), from the app's working directory; null before a build. */
export async function readManifest(dir = builtDir()): Promise<DownloadsManifest | null> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, MANIFEST_FILE), "utf8");
  } catch {
    return null;
  }
  return manifestSchema.parse(JSON.parse(text));
}

/** A file name as a download's address may spell it (a stem, a version, an extension); anything else names none. */
export const downloadParams = z.object({ file: z.string().regex(/^[0-9A-Za-z.-]{1,120}$/) });

/** The 404's message for a name that is no download: what is served instead. */
export function noDownloadNamed(fileName: string): string {
  const served = [...DOWNLOAD_PACKAGES.map((p) => `/downloads/${p.stem}.tgz`), `/downloads/${BUNDLE_FILE}`];
  return `No download named "${fileName.slice(0, 80)}". Served: ${served.join(", ")}.`;
}

/** The built tarball a requested file name stands for, or an ApiError(404) saying what is served instead. */
function resolveDownload(fileName: string, manifest: DownloadsManifest | null): BuiltDownload {
  const match = FILE_NAME.exec(fileName);
  const pkg = match ? DOWNLOAD_PACKAGES.find((p) => p.stem === match[1]) : undefined;
  if (!match || !pkg) throw new ApiError(404, noDownloadNamed(fileName));
  const built = manifest?.packages.find((p) => p.id === pkg.id);
  if (!built) throw new ApiError(404, `${pkg.packageName} has not been built on this site (npm run build makes it).`);
  const version = match[2];
  if (version !== undefined && version !== built.version) {
    throw new ApiError(
      404,
      `${pkg.packageName} ${version} is not served here; this site serves ${built.version}: /downloads/${pkg.stem}-${built.version}.tgz`,
    );
  }
  return built;
}

/** The built MCP bundle, or an ApiError(404) when this build made none. */
function resolveBundle(manifest: DownloadsManifest | null): BuiltFile {
  if (!manifest?.bundle)
    throw new ApiError(404, "The MCP bundle has not been built on this site (npm run build makes it).");
  return manifest.bundle;
}

type BuiltFile = Pick<BuiltDownload, "file" | "sha256">;
type Served = { bytes: Uint8Array<ArrayBuffer>; sha256: string };
// The tarballs as this server serves them, made once per file and origin.
const servedCache = new Map<string, Promise<Served>>();

/**
 * The built tarball or MCP bundle, with the build's origin rewritten to this server's (SITE_URL as the server was started): the
 * client's default registry and the READMEs name it. The same bytes as built when the server runs with the build's.
 */
export function servedBytes(dir: string, manifest: DownloadsManifest, built: BuiltFile): Promise<Served> {
  const origin = siteUrl();
  const key = `${dir}\n${built.file}\n${built.sha256}\n${origin}`;
  let served = servedCache.get(key);
  if (!served) {
    served = (async () => {
      const bytes = await fs.readFile(path.join(dir, built.file));
      if (manifest.siteUrl === origin) return { bytes: new Uint8Array(bytes), sha256: built.sha256 };
      const rewritten = built.file.endsWith(".tgz")
        ? servedTarball(bytes, manifest.siteUrl, origin)
        : servedBundle(bytes, manifest.siteUrl, origin);
      return { bytes: new Uint8Array(rewritten), sha256: createHash("sha256").update(rewritten).digest("hex") };
    })();
    servedCache.set(key, served);
    served.catch(() => servedCache.delete(key));
  }
  return served;
}

/** The tarball with its digest: an ETag (304 on If-None-Match) and RFC 9530's Repr-Digest. */
export async function downloadResponse(request: Request, fileName: string, dir = builtDir()): Promise<Response> {
  const manifest = await readManifest(dir);
  const built = fileName === BUNDLE_FILE ? resolveBundle(manifest) : resolveDownload(fileName, manifest);
  const { bytes, sha256 } = await servedBytes(dir, manifest!, built);
  const etag = `"${sha256}"`;
  const headers: Record<string, string> = {
    // An MCP bundle is a zip (there is no registered type of its own); a tarball is gzip.
    "Content-Type": fileName === BUNDLE_FILE ? "application/zip" : "application/gzip",
    "Content-Disposition": `attachment; filename="${built.file}"`,
    // The stable name moves to the next build's file; a cache asks again rather than keep an old one.
    "Cache-Control": "public, max-age=0, must-revalidate",
    ETag: etag,
    "Repr-Digest": `sha-256=:${Buffer.from(sha256, "hex").toString("base64")}:`,
  };
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers });
  return new Response(bytes, { status: 200, headers: { ...headers, "Content-Length": String(bytes.length) } });
}

/** The MCP bundle as a server on `origin` serves it: its manifest's defaults, README and client name that origin. */
function servedBundle(bytes: Buffer, buildOrigin: string, origin: string): Uint8Array {
  const rewriter = createRewriter({ siteUrl: buildOrigin, contactEmail: "" }, { siteUrl: origin, contactEmail: "" });
  return rewriter ? rewriteBundle(bytes, rewriter.text) : bytes;
}
