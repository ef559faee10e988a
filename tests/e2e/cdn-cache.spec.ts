// Ready for a CDN, against the production build: anonymous GETs of the marketplace, detail pages
// and the public read APIs may be kept by a shared cache briefly and revalidated with a validator (a repeat gets
// 304); a request that carries a session — a real one, signed in through the browser — is never marked public.
import { expect, test, type APIRequestContext } from "@playwright/test";
import { uniqueLogin } from "./support/auth";

const PUBLIC_ROUTES = [
  "/marketplace",
  "/marketplace?page=2",
  "/marketplace?q=weather",
  "/marketplace?category=Finance",
  "/marketplace/weather-now",
  "/api/mcp-agents",
  "/api/mcp-agents?q=weather&limit=5",
  "/v0.1/servers",
  "/discovery/resources",
  "/discovery/search?query=weather",
];

// The security headers the hardening specs check stay on every one of these answers.
const SECURITY_HEADERS = [
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "content-security-policy",
  "strict-transport-security",
];

function sharedCacheable(cacheControl: string | undefined) {
  expect(cacheControl).toMatch(/(^|, )public(,|$)/);
  expect(cacheControl).toMatch(/s-maxage=\d+/);
  expect(cacheControl).toMatch(/stale-while-revalidate=\d+/);
  expect(cacheControl).not.toMatch(/private|no-store/);
}

async function revalidates(request: APIRequestContext, route: string) {
  const first = await request.get(route);
  expect(first.status(), route).toBe(200);
  const headers = first.headers();
  sharedCacheable(headers["cache-control"]);
  for (const name of SECURITY_HEADERS) expect(headers[name], `${route}: ${name}`).toBeTruthy();
  const etag = headers.etag;
  const lastModified = headers["last-modified"];
  expect(etag ?? lastModified, `${route} has a validator`).toBeTruthy();
  // The validator follows the catalogue: a write elsewhere in the suite between the two requests (a background
  // check, the sales indexer) rightly changes it, so a repeat is judged against the answer just before it.
  let validator = { etag, lastModified };
  await expect(async () => {
    const again = await request.get(route, {
      headers: validator.etag ? { "if-none-match": validator.etag } : { "if-modified-since": validator.lastModified! },
    });
    if (again.status() === 200)
      validator = { etag: again.headers().etag, lastModified: again.headers()["last-modified"] };
    expect(again.status(), `${route} repeated with its validator`).toBe(304);
    expect(await again.body()).toHaveLength(0);
  }).toPass({ intervals: [0, 100, 500], timeout: 10_000 });
  // A validator that no longer matches gets the whole answer.
  const stale = await request.get(route, { headers: { "if-none-match": 'W/"not-this-version"' } });
  expect(stale.status()).toBe(200);
}

test.describe("shared caching of the public read surfaces", () => {
  for (const route of PUBLIC_ROUTES) {
    test(`anonymous ${route}: public with s-maxage and stale-while-revalidate, and a repeat gets 304`, async ({
      request,
    }) => {
      await revalidates(request, route);
    });
  }

  test("a signed-in person's requests to the same addresses are never marked public", async ({ page }, testInfo) => {
    test.setTimeout(120_000); // a sign-in through the fake GitHub, then ten requests
    // An email account, created through the form: signed in at once.
    await page.goto("/register");
    await page.getByLabel("Name", { exact: true }).fill("Cache Tester");
    await page.getByLabel("Email", { exact: true }).fill(`${uniqueLogin(testInfo, "cdn")}@example.com`);
    await page.getByLabel("Password", { exact: true }).fill("a long cache-test passphrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/submit$/, { timeout: 30_000 });
    const cookies = await page.context().cookies();
    expect(cookies.some((c) => /authjs\.session-token/.test(c.name))).toBe(true);
    for (const route of PUBLIC_ROUTES) {
      const res = await page.request.get(route);
      expect(res.status(), route).toBe(200);
      const cacheControl = res.headers()["cache-control"] ?? "";
      expect(cacheControl, route).toMatch(/private/);
      expect(cacheControl, route).not.toMatch(/public|s-maxage/);
    }
    // The page a person sees while signed in is marked private too.
    const response = await page.goto("/marketplace?q=weather");
    expect(response?.headers()["cache-control"]).toMatch(/private/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("pages that depend on the session are private whether or not one is sent", async ({ request }) => {
    for (const route of ["/submit", "/account"]) {
      const res = await request.get(route, { maxRedirects: 0 });
      expect(res.headers()["cache-control"] ?? "", route).not.toMatch(/public/);
    }
  });
});
