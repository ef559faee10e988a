// Issue #26: every URL a page names is this deployment's own origin (SITE_URL), never a fixed domain. The only
// other origins allowed are the documentation and tools the guides cite, the product's social profiles, and the
// listings' own server and website addresses (providers' data, not Agora's).
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { siteOrigin } from "./support/deployment";

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
  if (/(^|\.)example(\.com)?$/.test(host) || /(^|\.)mcpdemo\.dev$/.test(host) || host.endsWith(".awsapprunner.com")) return true;
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
  for (const url of [`${siteOrigin}/api/mcp`, `${siteOrigin}/v0/servers?search=boba`, `${siteOrigin}/api/mcp-agents?category=Finance`, `${siteOrigin}/marketplace/boba-order-bot`]) {
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
  expect((await res.json()).message).toMatch(/^@agora-mcp\/server 9\.9\.9 is not served here; this site serves \d+\.\d+\.\d+: \/downloads\/agora-mcp-server-\d+\.\d+\.\d+\.tgz$/);
  const current = await request.get("/downloads/agora-mcp-server.tgz");
  expect(current.status()).toBe(200);
  expect(current.headers()["content-type"]).toBe("application/gzip");
});
