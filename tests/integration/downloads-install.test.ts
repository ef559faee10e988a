// The packages install from the site that serves them, with the npm registry out of reach and an empty cache:
// the npx line of the Getting Started block starts the client, which searches the site it was downloaded from
// (its default registry, written in at build time); the provider guide's install lines put the kit in an empty
// project, where the guide's example server starts and answers price-listing. The tarballs are built here for another
// origin than the one the site runs on (one build, any domain), and served by the downloads route's code,
// which rewrites the build's origin to the site's, and the registry's real /api/mcp route.
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { unzipSync, strFromU8 } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { listings } from "@/db/schema";
import { setDatabase } from "@/lib/database";
import { clientConfig, fillPlaceholders } from "@/lib/deployment";
import { BUNDLE_FILE } from "@/lib/downloads/bundle-manifest";
import { downloadResponse } from "@/lib/downloads/served";
import { reloadEnv } from "@/lib/env";
import { toListingRow } from "@/lib/listings/write";
import { openTestDatabase, type TestConnection } from "../support/databases";
import { defaultEnvOf, mcpbManifestSchema, undeclaredUserConfig } from "../support/mcpb-manifest";
import { serveRoute } from "../support/route-server";

const REPO = process.cwd();
const TSX = path.join(REPO, "node_modules/tsx/dist/cli.mjs");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "agora-downloads-"));
const out = path.join(tmp, "downloads");
// The origin of the build; the site serving the tarballs runs on another.
const BUILD_ORIGIN = "http://agora-build.invalid:3000";
// npm as a stranger runs it: a registry nobody answers on (port 9, discard) and a cache of its own.
const npmEnv = {
  ...process.env,
  npm_config_registry: "http://127.0.0.1:9",
  npm_config_cache: path.join(tmp, "npm-cache"),
  npm_config_update_notifier: "false",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_fetch_retries: "0",
};

let site: Awaited<ReturnType<typeof serveRoute>>;
let conn: TestConnection;
let provider: ChildProcess | undefined;

/** The first fenced block of `lang` after `marker` in a guide, with this deployment's placeholders filled. */
function guideBlock(guide: string, marker: string, lang: string): string {
  const text = fs.readFileSync(path.join(REPO, "content/guides", guide), "utf8");
  const from = text.indexOf(marker);
  expect(from).toBeGreaterThan(-1);
  const block = new RegExp("```" + lang + "\\n([\\s\\S]*?)\\n\\s*```").exec(text.slice(from));
  return fillPlaceholders(block![1]!.replace(/^ {4}/gm, ""));
}

beforeAll(async () => {
  conn = await openTestDatabase("pglite");
  setDatabase(conn);
  await conn.db.insert(listings).values(
    toListingRow({
      name: "Tarball Weather",
      slug: "tarball-weather",
      description: "Forecasts for agents that installed their client from the site.",
      categories: ["AI"],
      serverUrl: "https://weather.example/mcp",
      status: "approved",
      price: 0.01,
    }),
  );
  site = await serveRoute({
    GET: (request) => {
      const { pathname } = new URL(request.url);
      return pathname.startsWith("/downloads/")
        ? downloadResponse(request, decodeURIComponent(pathname.slice("/downloads/".length)), out)
        : new Response(null, { status: 404 });
    },
    POST: (request) =>
      new URL(request.url).pathname === "/api/mcp" ? mcpPost(request) : new Response(null, { status: 404 }),
  });
  process.env.SITE_URL = site.url;
  process.env.RATE_LIMIT_DISABLED = "1";
  delete process.env.PACKAGES_ON_REGISTRY;
  reloadEnv();
  execFileSync(process.execPath, [TSX, "scripts/build-downloads.ts", "--out", out], {
    env: { ...process.env, SITE_URL: BUILD_ORIGIN },
    stdio: ["ignore", "ignore", "inherit"],
  });
}, 120_000);

afterAll(async () => {
  provider?.kill("SIGTERM");
  await site?.close();
  await conn?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the client from the Getting Started block", () => {
  it("starts through npx from the site, lists its tools and finds the site's servers by default", async () => {
    const config = JSON.parse(guideBlock("getting-started.mdx", "Add the Agora server", "json")) as {
      mcpServers: { agora: { command: string; args: string[]; env: Record<string, string> } };
    };
    const { command, args, env } = config.mcpServers.agora;
    expect([command, ...args]).toEqual(["npx", "-y", `${site.url}/downloads/agora-mcp-client.tgz`]);
    expect(env.AGORA_REGISTRY_URL).toBe(`${site.url}/api`);
    // Without AGORA_REGISTRY_URL the client must still search this site: the registry written into its tarball.
    const { AGORA_REGISTRY_URL: _named, ...rest } = env;
    const home = path.join(tmp, "home");
    const transport = new StdioClientTransport({
      command,
      args,
      cwd: tmp,
      env: { ...getDefaultEnvironment(), ...npmEnv, ...rest, HOME: home },
      stderr: "pipe",
    });
    let log = "";
    transport.stderr?.on("data", (d: Buffer) => (log += d.toString()));
    const client = new Client({ name: "getting-started-reader", version: "1.0.0" });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        "check_job",
        "close_channel",
        "explore_server",
        "purchase",
        "review",
        "revoke_review",
        "search_servers",
        "wallet",
      ]);
      const found = (await client.callTool({
        name: "search_servers",
        arguments: { query: "weather" },
      })) as CallToolResult;
      expect(found.isError ?? false).toBe(false);
      expect((found.structuredContent as { servers: { slug: string }[] }).servers.map((s) => s.slug)).toEqual([
        "tarball-weather",
      ]);
      expect(log).toContain(`registry ${site.url}/api; spending policy`);
      expect(log).toMatch(/; ready\.$/m);
      // npx's copy of the tarball: its README names the site it came from too, never the build's origin.
      const npxDir = path.join(npmEnv.npm_config_cache, "_npx");
      const readmes = fs
        .readdirSync(npxDir)
        .map((d) => path.join(npxDir, d, "node_modules/@agora-mcp/client/README.md"))
        .filter((f) => fs.existsSync(f));
      expect(readmes).toHaveLength(1);
      expect(fs.readFileSync(readmes[0]!, "utf8")).toContain(`${site.url}/downloads/agora-mcp-client.tgz`);
      expect(fs.readFileSync(readmes[0]!, "utf8")).not.toContain(BUILD_ORIGIN);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("the MCP bundle for Claude Desktop", () => {
  it("downloads from the site, unpacks, its manifest validates, and its client starts offline with the block's settings and lists its tools", async () => {
    const response = await fetch(`${site.url}/downloads/${BUNDLE_FILE}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const manifest = mcpbManifestSchema.parse(JSON.parse(strFromU8(files["manifest.json"]!)));
    expect(undeclaredUserConfig(manifest)).toEqual([]);
    expect(files[manifest.server.entry_point]).toBeDefined();
    // Unpacked as a host unpacks it: every file under one folder, ${__dirname}.
    const dir = path.join(tmp, "bundle");
    for (const [name, bytes] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), bytes);
    }
    // With every option at its default, the client gets exactly the settings of the block beside the button.
    const home = path.join(tmp, "bundle-home");
    const env = defaultEnvOf(manifest, home);
    const block = clientConfig().mcpServers.agora!.env;
    for (const [name, value] of Object.entries(block)) expect(env[name], name).toBe(value);
    expect(env.AGORA_WALLET_FILE).toBe(path.join(home, ".agora/wallet.json"));
    const { command, args } = manifest.server.mcp_config;
    expect(command).toBe("node");
    // No npm, no registry, no network: node runs the bundled file; PATH holds node's folder only.
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: args.map((a) => a.replace("${__dirname}", dir)),
      cwd: dir,
      env: { PATH: path.dirname(process.execPath), HOME: home, ...env },
      stderr: "pipe",
    });
    let log = "";
    transport.stderr?.on("data", (d: Buffer) => (log += d.toString()));
    const client = new Client({ name: "claude-desktop-stand-in", version: "1.0.0" });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["search_servers", "purchase", "wallet"]));
      // The address on first start (never the key), and the site's page to fund it.
      const address = /Created a new wallet (0x[0-9a-fA-F]{40})/.exec(log)?.[1];
      expect(address).toBeDefined();
      expect(log).toContain(`Fund it: ${site.url}/wallet/${address}`);
      expect(log).not.toMatch(/0x[0-9a-fA-F]{64}/);
      expect(log).toContain(`registry ${site.url}/api; spending policy`);
      expect(log).toMatch(/; ready\.$/m);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("the provider kit from the provider guide", () => {
  it("installs into an empty project, and the guide's example starts and answers price-listing", async () => {
    const project = path.join(tmp, "provider");
    fs.mkdirSync(project);
    const install = guideBlock("setup-and-usage.mdx", "**2. Install the kit.**", "bash");
    expect(install).toContain(`npm install ${site.url}/downloads/agora-mcp-server.tgz`);
    // Asynchronously: this process serves the tarball npm fetches.
    await promisify(execFile)("sh", ["-e", "-c", install], { cwd: project, env: npmEnv, timeout: 50_000 });
    const installed = JSON.parse(
      fs.readFileSync(path.join(project, "node_modules/@agora-mcp/server/package.json"), "utf8"),
    ) as Record<string, unknown>;
    expect(installed).toMatchObject({ name: "@agora-mcp/server", types: "./dist/index.d.ts" });
    expect(installed.dependencies).toBeUndefined();
    expect(fs.existsSync(path.join(project, "node_modules/@agora-mcp/server/dist/protocol/index.d.ts"))).toBe(true);

    // The guide's own files: index.js as shown, .env as shown with the address filled in as it says.
    fs.writeFileSync(
      path.join(project, "index.js"),
      guideBlock("setup-and-usage.mdx", "**4. Declare what you sell.**", "js"),
    );
    const dotenv = guideBlock("setup-and-usage.mdx", "**3. Set the environment variables.**", "dotenv");
    expect(dotenv).toContain("SERVER_WALLET_ADDRESS=0xYourReceivingWalletAddress");
    // Left as it is, the placeholder stops the server with one line naming the setting, and no stack trace.
    fs.writeFileSync(path.join(project, ".env"), dotenv);
    const refused = await promisify(execFile)("npm", ["start"], {
      cwd: project,
      env: { ...npmEnv, PORT: "0" },
      timeout: 30_000,
    }).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stderr).toContain(
      'walletAddress must be a 0x address of 40 hex digits, not "0xYourReceivingWalletAddress"',
    );
    expect(refused?.stderr).toContain("SERVER_WALLET_ADDRESS");
    expect(refused?.stderr).not.toMatch(/\n\s+at /);
    fs.writeFileSync(path.join(project, ".env"), dotenv.replace("0xYourReceivingWalletAddress", `0x${"5".repeat(40)}`));
    // The Local Testing Guide's commands, as shown: build, then start (PORT and FACILITATOR_URL set as it shows).
    const commands = guideBlock("local-testing-guide.mdx", "Build and start your server", "bash").split("\n");
    expect(commands).toEqual(["npm run build", "npm start"]);
    await promisify(execFile)("sh", ["-e", "-c", commands[0]!], { cwd: project, env: npmEnv, timeout: 30_000 });
    provider = spawn("sh", ["-c", `exec ${commands[1]!}`], {
      cwd: project,
      env: { ...npmEnv, PORT: "0", FACILITATOR_URL: "http://127.0.0.1:9" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let output = "";
      const read = (d: Buffer) => {
        output += d.toString();
        const match = /Selling word counts at (\S+)/.exec(output);
        if (match) resolve(match[1]!);
      };
      provider!.stdout!.on("data", read);
      provider!.stderr!.on("data", read);
      provider!.once("exit", (code) => reject(new Error(`the example exited with ${code}: ${output}`)));
    });
    const client = new Client({ name: "guide-reader", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const listing = (await client.callTool({ name: "price-listing", arguments: {} })) as CallToolResult;
      expect(listing.isError ?? false).toBe(false);
      const text = listing.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      expect(text).toContain("word-count");
      expect(text).toContain("character-count");
    } finally {
      await client.close();
    }
  }, 60_000);
});
