// npm run build:downloads (part of `npm run build` and `npm run dev`): self-contained tarballs of the agent client
// and the provider kit, for the site to serve at /downloads. Each is one esbuild bundle (no dependency left for npm
// to fetch, so it installs with no registry in reach), the workspace's type declarations with the protocol
// package's inside, a package.json without dependencies and a README whose {SITE_URL} is this deployment.
// The client's default registry is written in: `{SITE_URL}/api` of the build. Beside them, the client's MCP bundle
// for Claude Desktop (scripts/support/mcpb.ts), its settings' defaults the build's config block.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import nextEnv from "@next/env";
import { REQUIRE_SHIM, writeClientBundle } from "./support/mcpb";
import {
  DEV_DOWNLOADS_DIR,
  DOWNLOAD_PACKAGES,
  DOWNLOADS_DIR,
  MANIFEST_FILE,
  type BuiltDownload,
  type DownloadPackage,
  type DownloadsManifest,
} from "@/lib/downloads/packages";

const PROTOCOL_TYPES = "packages/protocol/dist";

type WorkspaceManifest = {
  name: string;
  version: string;
  description: string;
  license: string;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
};

function args(argv: string[]): { out: string; dev: boolean } {
  const at = argv.indexOf("--out");
  const dev = argv.includes("--dev");
  return { out: at >= 0 && argv[at + 1] ? argv[at + 1]! : dev ? DEV_DOWNLOADS_DIR : DOWNLOADS_DIR, dev };
}

async function bundle(pkg: DownloadPackage, manifest: WorkspaceManifest, stage: string, registryUrl: string) {
  const entries = ["src/index.ts", ...(manifest.bin ? ["src/bin.ts"] : [])].map((e) => path.join(pkg.dir, e));
  await build({
    entryPoints: entries,
    outdir: path.join(stage, "dist"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    banner: { js: REQUIRE_SHIM },
    define: { __DEFAULT_REGISTRY_URL__: JSON.stringify(registryUrl) },
    logLevel: "warning",
    legalComments: "eof",
  });
  if (manifest.bin) fs.chmodSync(path.join(stage, "dist/bin.js"), 0o755);
}

/** The workspace's declarations, with @agora-mcp/protocol's shipped inside (dist/protocol) instead of required. */
function copyTypes(pkg: DownloadPackage, stage: string) {
  const from = path.join(pkg.dir, "dist");
  const dist = path.join(stage, "dist");
  fs.mkdirSync(path.join(dist, "protocol"), { recursive: true });
  for (const file of fs.readdirSync(PROTOCOL_TYPES).filter((f) => f.endsWith(".d.ts"))) {
    fs.copyFileSync(path.join(PROTOCOL_TYPES, file), path.join(dist, "protocol", file));
  }
  const declarations = fs.readdirSync(from).filter((f) => f.endsWith(".d.ts"));
  if (!declarations.includes("index.d.ts"))
    throw new Error(`${from}/index.d.ts is missing: run npm run build:packages first`);
  for (const file of declarations) {
    const text = fs
      .readFileSync(path.join(from, file), "utf8")
      .replaceAll('"@agora-mcp/protocol"', '"./protocol/index.js"');
    fs.writeFileSync(path.join(dist, file), text);
  }
}

function writeManifest(pkg: DownloadPackage, manifest: WorkspaceManifest, stage: string) {
  const packageJson = {
    name: manifest.name,
    version: manifest.version,
    description: manifest.description,
    license: manifest.license,
    type: "module",
    main: "./dist/index.js",
    types: "./dist/index.d.ts",
    ...(manifest.bin ? { bin: manifest.bin } : {}),
    exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } },
    files: ["dist", "README.md"],
    engines: manifest.engines,
  };
  fs.writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(packageJson, null, 2)}\n`);
}

function writeReadme(pkg: DownloadPackage, stage: string, siteUrl: string) {
  const readme = fs.readFileSync(path.join(pkg.dir, "README.md"), "utf8").replaceAll("{SITE_URL}", siteUrl);
  fs.writeFileSync(path.join(stage, "README.md"), readme);
}

/** npm pack gives the layout npm expects (package/…) and fixed timestamps; it needs no registry. */
function pack(stage: string, out: string): string {
  const output = execFileSync(
    "npm",
    ["pack", stage, "--pack-destination", out, "--ignore-scripts", "--json", "--silent"],
    {
      encoding: "utf8",
      env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" },
    },
  );
  const [packed] = JSON.parse(output) as [{ filename: string }];
  return packed.filename;
}

async function buildOne(pkg: DownloadPackage, out: string, siteUrl: string): Promise<BuiltDownload> {
  const manifest = JSON.parse(fs.readFileSync(path.join(pkg.dir, "package.json"), "utf8")) as WorkspaceManifest;
  if (manifest.name !== pkg.packageName)
    throw new Error(`${pkg.dir}/package.json is ${manifest.name}, expected ${pkg.packageName}`);
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), `${pkg.stem}-`));
  try {
    await bundle(pkg, manifest, stage, `${siteUrl}/api`);
    copyTypes(pkg, stage);
    writeManifest(pkg, manifest, stage);
    writeReadme(pkg, stage, siteUrl);
    const file = pack(stage, out);
    const bytes = fs.readFileSync(path.join(out, file));
    return {
      id: pkg.id,
      packageName: pkg.packageName,
      version: manifest.version,
      file,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      size: bytes.length,
    };
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

const { out, dev } = args(process.argv.slice(2));
// The same .env files `next build` (or `next dev`) reads, so the tarballs name the origin the pages name.
nextEnv.loadEnvConfig(process.cwd(), dev, { info: () => {}, error: console.error });
const { siteUrl } = await import("@/lib/site");
// A SITE_URL that is not an origin stops the build here, naming the variable, before it is written into a tarball.
const settings = (await import("@/lib/env")).pageSettings();
const origin = siteUrl();
const { clientConfig } = await import("@/lib/deployment");
const { site } = await import("@/lib/site");
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
const packages: BuiltDownload[] = [];
for (const pkg of DOWNLOAD_PACKAGES) packages.push(await buildOne(pkg, out, origin));
// The MCP bundle for Claude Desktop, with this build's config block's settings as its defaults.
const mcpBundle = await writeClientBundle({ out, siteUrl: origin, siteName: site.name, config: clientConfig() });
// What this build wrote into the tarballs and (the same .env, the same variables) into the prerendered pages: the
// server started with other values rewrites them (server/deployment-rewrite.mjs, lib/downloads/served.ts).
const written: DownloadsManifest = {
  siteUrl: origin,
  contactEmail: settings.CONTACT_EMAIL,
  builtAt: new Date().toISOString(),
  packages,
  bundle: mcpBundle,
};
fs.writeFileSync(path.join(out, MANIFEST_FILE), `${JSON.stringify(written, null, 2)}\n`);
console.log(
  `${path.join(out, mcpBundle.file)}  ${mcpBundle.sha256}  (${Math.round(mcpBundle.size / 1024)} KB, MCP bundle)`,
);
for (const p of packages)
  console.log(`${path.join(out, p.file)}  ${p.sha256}  (${Math.round(p.size / 1024)} KB, registry ${origin}/api)`);
