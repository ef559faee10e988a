// Writes the agent client's MCP bundle (.mcpb): manifest.json, the client as one esbuild bundle and its README,
// zipped by lib/downloads/bundle-zip.ts (fixed entry dates: the same sources give the same bytes and SHA-256).
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import { strToU8 } from "fflate";
import { BUNDLE_ENTRY, BUNDLE_FILE, bundleManifest } from "@/lib/downloads/bundle-manifest";
import { zipBundle } from "@/lib/downloads/bundle-zip";
import type { ClientConfig } from "@/lib/deployment";

const CLIENT_DIR = "packages/client";
// Bundled CommonJS dependencies call require() for Node's modules; an ES module has none of its own.
export const REQUIRE_SHIM =
  'import { createRequire as __agoraCreateRequire } from "node:module"; const require = __agoraCreateRequire(import.meta.url);';

export type BuiltBundle = { file: string; version: string; sha256: string; size: number };

export async function writeClientBundle({
  out,
  siteUrl,
  siteName,
  config,
}: {
  out: string;
  siteUrl: string;
  siteName: string;
  config: ClientConfig;
}): Promise<BuiltBundle> {
  const { version } = JSON.parse(fs.readFileSync(path.join(CLIENT_DIR, "package.json"), "utf8")) as { version: string };
  const built = await build({
    entryPoints: [path.join(CLIENT_DIR, "src/bin.ts")],
    bundle: true,
    write: false,
    outfile: BUNDLE_ENTRY,
    format: "esm",
    platform: "node",
    target: "node20",
    banner: { js: REQUIRE_SHIM },
    define: { __DEFAULT_REGISTRY_URL__: JSON.stringify(`${siteUrl}/api`) },
    logLevel: "warning",
    legalComments: "eof",
  });
  const [script] = built.outputFiles;
  if (!script || built.outputFiles.length !== 1)
    throw new Error("esbuild made more than one file for the bundle's client");
  const manifest = bundleManifest({ config, version, siteUrl, siteName });
  const readme = fs.readFileSync(path.join(CLIENT_DIR, "README.md"), "utf8").replaceAll("{SITE_URL}", siteUrl);
  const zip = zipBundle({
    "manifest.json": strToU8(`${JSON.stringify(manifest, null, 2)}
`),
    [BUNDLE_ENTRY]: script.contents,
    "README.md": strToU8(readme),
  });
  fs.writeFileSync(path.join(out, BUNDLE_FILE), zip);
  return { file: BUNDLE_FILE, version, sha256: createHash("sha256").update(zip).digest("hex"), size: zip.length };
}
