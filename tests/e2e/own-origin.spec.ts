// Every URL a page names is this deployment's own origin (SITE_URL), never a fixed domain. The only
// other origins allowed are the documentation and tools the guides cite, the product's social profiles, and the
// listings' own server and website addresses (providers' data, not Agora's).
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { contactEmail, siteOrigin } from "./support/deployment";
import { appPort } from "./support/ports";
import { startProductionServer, type ProductionServer } from "./support/production-server";

const pages = [
  "/",
  "/how-it-works",
  "/getting-started",
  "/guides/agents",
  "/guides/setup-and-usage",
  "/guides/local-testing-guide",
  "/guides/aws-step-by-step",
  "/terms-of-service",
  "/privacy-policy",
  "/mcpsummit",
  "/marketplace",
  "/marketplace/weather-now",
];

// Hosts a page may cite besides its own: none is where an agent, an install line or a config block points at Agora.
const CITED_HOSTS = new Set([
  "nodejs.org",
  "claude.ai",
  "x402.org",
  "modelcontextprotocol.io",
  "registry.modelcontextprotocol.io",
  "static.modelcontextprotocol.io",
  "github.com",
  "portal.cdp.coinbase.com",
  "faucet.circle.com",
  "sepolia.basescan.org",
  "www.youtube.com",
  "www.youtube-nocookie.com",
  "docs.langchain.com",
  "ai-sdk.dev",
  "openai.github.io",
  "x.com",
  "schema.org", // JSON-LD vocabulary
]);

/** Example addresses of the reader's own things: reserved example domains, the demo catalogue's, an App Runner
 * service, and on loopback the provider's own server (8080) and the sandbox's facilitator (4020). */
function isExampleOfReaders(url: URL): boolean {
  const host = url.hostname;
  if (/(^|\.)example(\.com)?$/.test(host) || /(^|\.)mcpdemo\.dev$/.test(host) || host.endsWith(".awsapprunner.com"))
    return true;
  return (host === "localhost" || host === "127.0.0.1") && ["8080", "4020"].includes(url.port);
}

// Paths of the site itself: wherever one of these appears, it must be on the deployment's origin.
const SITE_PATH = /^\/(api|v0|v0\.1|downloads|marketplace|guides|getting-started|discovery|submit)(\/|$)/;
// An address starts with a host (prose such as "plain `http://`." names none).
const URL_IN_TEXT = /https?:\/\/[A-Za-z0-9[][^\s"'<>`\\)\]},]*/g;

type RegistryPage = { servers: { server: { websiteUrl?: string; remotes?: { url: string }[] } }[] };

/** The origins of every listed server and website, as the registry API gives them. */
async function listingOrigins(request: APIRequestContext): Promise<Set<string>> {
  const { servers } = (await (await request.get("/v0.1/servers?limit=100")).json()) as RegistryPage;
  const urls = servers.flatMap(({ server }) => [server.websiteUrl, ...(server.remotes ?? []).map((r) => r.url)]);
  return new Set(urls.filter((u): u is string => Boolean(u)).map((u) => new URL(u).origin));
}

/** What a reader sees and follows: the page's text (code blocks included) and every address in its markup. */
async function addressesOn(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attributes = [...document.querySelectorAll("[href], [src], [content], [action]")].flatMap((e) =>
      ["href", "src", "content", "action"].map((a) => e.getAttribute(a) ?? ""),
    );
    const jsonLd = [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => s.textContent ?? "");
    return [document.body.innerText, ...attributes, ...jsonLd].join("\n");
  });
}

test("the pages name no origin but the deployment's own, and never the fixed domain", async ({ page, request }) => {
  test.setTimeout(90_000);
  const listings = await listingOrigins(request);
  expect(listings.size).toBeGreaterThan(5);
  const foreign: string[] = [];
  for (const path of pages) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    expect(await page.content(), path).not.toContain("agora-mcp.dev");
    for (const found of (await addressesOn(page)).match(URL_IN_TEXT) ?? []) {
      const url = URL.canParse(found) ? new URL(found) : null;
      if (!url || url.origin === siteOrigin) continue;
      const cited = listings.has(url.origin) || CITED_HOSTS.has(url.hostname) || isExampleOfReaders(url);
      if (!cited || SITE_PATH.test(url.pathname)) foreign.push(`${path}: ${found}`);
    }
  }
  expect(foreign).toEqual([]);
});

test("the agent, registry and install URLs the guides show are the deployment's", async ({ request }) => {
  const text = async (path: string) => (await (await request.get(path)).text()).replaceAll("&amp;", "&");
  const agents = await text("/guides/agents");
  for (const url of [
    `${siteOrigin}/api/mcp`,
    `${siteOrigin}/v0/servers?search=boba`,
    `${siteOrigin}/api/mcp-agents?category=Finance`,
    `${siteOrigin}/marketplace/boba-order-bot`,
  ]) {
    expect(agents).toContain(url);
  }
  expect(await text("/getting-started")).toContain(`${siteOrigin}/downloads/agora-mcp-client.tgz`);
  const guide = await text("/guides/setup-and-usage");
  expect(guide).toContain(`npm install ${siteOrigin}/downloads/agora-mcp-server.tgz`);
  expect(guide).toContain(`${siteOrigin}/api`);
  expect(await text("/marketplace/weather-now")).toContain(`${siteOrigin}/downloads/agora-mcp-client.tgz`);
});

test("an unknown version of a package answers 404 naming the one served", async ({ request }) => {
  const res = await request.get("/downloads/agora-mcp-server-9.9.9.tgz");
  expect(res.status()).toBe(404);
  expect((await res.json()).message).toMatch(
    /^@agora-mcp\/server 9\.9\.9 is not served here; this site serves \d+\.\d+\.\d+: \/downloads\/agora-mcp-server-\d+\.\d+\.\d+\.tgz$/,
  );
  const current = await request.get("/downloads/agora-mcp-server.tgz");
  expect(current.status()).toBe(200);
  expect(current.headers()["content-type"]).toBe("application/gzip");
});

// One build runs on any domain. The suite's build (SITE_URL = siteOrigin) started again with
// another SITE_URL and CONTACT_EMAIL, as `npm run start:prod` (the standalone server, the container's command) and as
// `npm start` (next start): the prerendered guides and their config blocks, robots.txt, the sitemap, the served
// tarballs and the digests the guides show all name the server's origin, and a client-side navigation to a guide
// reads its RSC payload whole (server/deployment-rewrite.mjs rewrites the text rows' byte lengths with the origin).
test.describe("one build on another origin", () => {
  test.skip(({ isMobile }) => isMobile, "server behaviour; the phone layout is looked at from the desktop project");
  test.describe.configure({ mode: "serial" });

  const otherContact = "team@other-origin.example";
  const dirs: string[] = [];
  // The origin each server is started with, longer than the build's so that the RSC text rows it lands in change
  // length; the servers are reached on loopback (the pages' own links are relative).
  const servers: { name: string; server: ProductionServer; other: string }[] = [];
  const otherOrigin = (port: number) => `https://agora-${port}.other-origin.example`;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const env = (port: number) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-other-origin-"));
      dirs.push(dir);
      // Static pages and downloads need no catalogue: an embedded database of its own, whatever the pass.
      return {
        NODE_ENV: "production",
        SITE_URL: otherOrigin(port),
        CONTACT_EMAIL: otherContact,
        AUTH_SECRET: "other-origin-spec-secret-0123456789abcdef",
        DATABASE_URL: "",
        PGLITE_DIR: dir,
        CHECK_SCHEDULE_DISABLED: "1",
      };
    };
    servers.push({
      name: "npm run start:prod",
      server: await startProductionServer(appPort + 28, env(appPort + 28)),
      other: otherOrigin(appPort + 28),
    });
    servers.push({
      name: "npm start",
      server: await startNpmStart(appPort + 29, env(appPort + 29)),
      other: otherOrigin(appPort + 29),
    });
  });

  test.afterAll(async () => {
    await Promise.all(servers.map(({ server }) => server.stop()));
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  test("the guides, robots.txt, the sitemap and the tarballs name the origin the server was started with", async ({
    request,
  }) => {
    test.setTimeout(90_000);
    const builtClient = await request.get("/downloads/agora-mcp-client.tgz");
    for (const { name, server, other } of servers) {
      const get = (target: string) => request.get(`${server.origin}${target}`);
      for (const guide of ["/getting-started", "/guides/local-testing-guide", "/guides/setup-and-usage"]) {
        const html = (await (await get(guide)).text()).replaceAll("&amp;", "&");
        expect(html, `${name} ${guide}`).toContain(`${other}/api`);
        expect(html, `${name} ${guide}`).not.toContain(siteOrigin);
      }
      const started = await (await get("/getting-started")).text();
      // The config block as a reader sees it (the highlighted markup without its tags).
      const shown = started.replace(/<[^>]*>/g, "").replaceAll("&quot;", '"');
      expect(shown).toContain(`"AGORA_REGISTRY_URL": "${other}/api"`);
      expect(shown).toContain(`"${other}/downloads/agora-mcp-client.tgz"`);
      // The one-click install links carry the same server in base64 (Cursor) and URL-encoded (VS Code).
      const cursor = /href="(cursor:[^"]+)"/.exec(started)![1]!.replaceAll("&amp;", "&");
      const cursorServer = Buffer.from(new URL(cursor).searchParams.get("config")!, "base64").toString("utf8");
      const vscodeServer = decodeURIComponent(/href="vscode:mcp\/install\?([^"]+)"/.exec(started)![1]!);
      for (const [host, server] of [
        ["Cursor", cursorServer],
        ["VS Code", vscodeServer],
      ]) {
        expect(server, `${name} ${host}`).toContain(`"AGORA_REGISTRY_URL":"${other}/api"`);
        expect(server, `${name} ${host}`).not.toContain(siteOrigin);
      }
      const legal = await (await get("/privacy-policy")).text();
      expect(legal).toContain(otherContact);
      expect(legal).not.toContain(contactEmail);

      expect(await (await get("/robots.txt")).text()).toContain(`Sitemap: ${other}/sitemap.xml`);
      // The sitemap index names this server's sitemap files, and they name its pages.
      const index = await (await get("/sitemap.xml")).text();
      expect(index).toContain(`<loc>${other}/sitemap/0.xml</loc>`);
      expect(index).not.toContain(siteOrigin);
      const sitemap = await (await get("/sitemap/0.xml")).text();
      expect(sitemap).toContain(`<loc>${other}/guides/local-testing-guide</loc>`);
      expect(sitemap).not.toContain(siteOrigin);

      // The tarball: the client's default registry and its README name this server; the page shows its digest.
      const tarball = await get("/downloads/agora-mcp-client.tgz");
      expect(tarball.status()).toBe(200);
      const bytes = await tarball.body();
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      expect(tarball.headers().etag).toBe(`"${sha256}"`);
      expect(tarball.headers().etag).not.toBe(builtClient.headers().etag);
      const files = unpack(bytes);
      expect(files["package/README.md"]).toContain(`${other}/downloads/agora-mcp-client.tgz`);
      expect(Object.values(files).join("\n")).not.toContain(siteOrigin);
      expect(
        Object.values(files).some((text) => text.includes(`"${other}/api"`)),
        `${name}: the client's default registry`,
      ).toBe(true);
      expect(started).toContain(sha256);
      const versioned = await get(
        `/downloads/agora-mcp-client-${JSON.parse(files["package/package.json"]!).version}.tgz`,
      );
      expect((await versioned.body()).equals(bytes)).toBe(true);

      // The MCP bundle ("Add to Claude Desktop"): its settings' default registry, README and client name this server.
      const bundle = await get("/downloads/agora-mcp-client.mcpb");
      expect(bundle.status()).toBe(200);
      const zipped = await bundle.body();
      expect(bundle.headers().etag).toBe(`"${createHash("sha256").update(zipped).digest("hex")}"`);
      const entries = Object.fromEntries(
        Object.entries(unzipSync(new Uint8Array(zipped))).map(([n, b]) => [n, strFromU8(b)]),
      );
      expect(Object.values(entries).join("\n")).not.toContain(siteOrigin);
      const manifest = JSON.parse(entries["manifest.json"]!) as {
        homepage: string;
        user_config: Record<string, { default?: unknown }>;
      };
      expect(manifest.homepage, name).toBe(other);
      expect(Object.values(manifest.user_config).map((o) => o.default)).toContain(`${other}/api`);
      expect(entries["server/index.mjs"]).toContain(`"${other}/api"`);
    }
  });

  test("a rewritten page has its own ETag, the same from the fast path and from Next, and revalidates", async ({
    request,
  }) => {
    for (const { name, server } of servers) {
      expect(server.log(), name).toContain('"msg":"prerendered pages rewritten to this server\'s settings"');
      const fast = await request.get(`${server.origin}/getting-started`);
      // A query string is Next's to answer (server/static-fast-path.mjs): the same page, rewritten by its route cache.
      const viaNext = await request.get(`${server.origin}/getting-started?from=next`);
      expect(await viaNext.text()).toBe(await fast.text());
      const etag = fast.headers().etag!;
      expect(etag).not.toBe((await request.get("/getting-started")).headers().etag);
      expect(viaNext.headers().etag).toBe(etag);
      const again = await request.get(`${server.origin}/getting-started`, { headers: { "if-none-match": etag } });
      expect(again.status(), name).toBe(304);
    }
  });

  test("the RSC payload of a guide is whole, and a client-side navigation shows its config block", async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    for (const { name, server, other } of servers) {
      const rsc = await request.get(`${server.origin}/getting-started`, { headers: { rsc: "1" }, maxRedirects: 5 });
      expect(rsc.headers()["content-type"], name).toContain("text/x-component");
      const rows = flightRows(await rsc.body());
      expect(
        rows.some((row) => row.includes(`${other}/downloads/agora-mcp-client.tgz`)),
        name,
      ).toBe(true);
      expect(rows.join("\n")).not.toContain(siteOrigin);

      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      const flight: number[] = [];
      page.on(
        "response",
        (r) =>
          r.request().headers()["rsc"] === "1" &&
          new URL(r.url()).pathname === "/getting-started" &&
          flight.push(r.status()),
      );
      await page.goto(`${server.origin}/how-it-works`);
      await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
      await page.getByRole("banner").getByRole("link", { name: "Getting Started", exact: true }).first().click();
      await expect(page).toHaveURL(`${server.origin}/getting-started`);
      await expect(page.getByRole("heading", { level: 1, name: "Getting Started" })).toBeVisible();
      const block = page.locator("pre").filter({ hasText: "AGORA_REGISTRY_URL" }).first();
      await expect(block).toContainText(`"AGORA_REGISTRY_URL": "${other}/api"`);
      await expect(block).toContainText(`${other}/downloads/agora-mcp-client.tgz`);
      expect(
        await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed),
        `${name}: navigated without a full page load`,
      ).toBe(true);
      expect(flight, name).toContain(200);
      expect(errors, name).toEqual([]);
      page.removeAllListeners("pageerror");
      page.removeAllListeners("console");
      page.removeAllListeners("response");
    }
    const address = servers[0]!.server.origin;
    await page.goto(`${address}/guides/local-testing-guide`);
    await page.locator("pre").filter({ hasText: "AGORA_REGISTRY_URL" }).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("local-testing-guide-1280.png"), fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${address}/getting-started`);
    await page.locator("pre").filter({ hasText: "AGORA_REGISTRY_URL" }).first().scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath("getting-started-390.png"), fullPage: false });
  });
});

/** The files of a gzipped tar archive, as text. */
function unpack(gzipped: Buffer): Record<string, string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-unpack-"));
  try {
    fs.writeFileSync(path.join(dir, "p.tgz"), gzipped);
    execFileSync("tar", ["-xzf", "p.tgz"], { cwd: dir });
    const files: Record<string, string> = {};
    const walk = (rel: string) => {
      for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
        const file = path.join(rel, entry.name);
        if (entry.isDirectory()) walk(file);
        else files[file] = fs.readFileSync(path.join(dir, file), "utf8");
      }
    };
    walk("package");
    return files;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows of an RSC payload read as React's client reads them; throws where a length does not fit. */
function flightRows(bytes: Buffer): string[] {
  const rows: string[] = [];
  let i = 0;
  while (i < bytes.length) {
    const colon = bytes.indexOf(":", i);
    const id = bytes.toString("latin1", i, colon);
    if (!/^[0-9a-f]*$/.test(id)) throw new Error(`not a row at byte ${i}: ${bytes.toString("utf8", i, i + 40)}`);
    if (bytes[colon + 1] === 0x54 /* T */) {
      const comma = bytes.indexOf(",", colon);
      const end = comma + 1 + parseInt(bytes.toString("latin1", colon + 2, comma), 16);
      if (end > bytes.length) throw new Error(`row ${id} runs past the payload`);
      rows.push(bytes.toString("utf8", comma + 1, end));
      i = end;
    } else {
      const end = bytes.indexOf("\n", colon);
      rows.push(bytes.toString("utf8", colon + 1, end));
      i = end + 1;
    }
  }
  return rows;
}

/** `npm start` (next start with the preloads) from the checkout, as a person runs it after `npm run build`. */
async function startNpmStart(port: number, env: Record<string, string>): Promise<ProductionServer> {
  const child = spawn("npm", ["start"], {
    env: { ...process.env, ...env, PORT: String(port), NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c));
  child.stderr!.on("data", (c: Buffer) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  // npm runs node in a child of its own: the group is stopped.
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGTERM");
    await exited;
  };
  const orphan = () => child.exitCode === null && process.kill(-child.pid!, "SIGKILL");
  process.once("exit", orphan);
  void exited.then(() => process.off("exit", orphan));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start on ${port} exited with ${child.exitCode}:\n${output}`);
    if (
      await fetch(`${origin}/api/ready`, { signal: AbortSignal.timeout(3_000) }).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      return { origin, process: child, log: () => output, exited, stop };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`npm start on ${port} not ready within 60 s:\n${output}`);
}
