// Against the production build: odd URLs answer 4xx pages (never 500), and unknown
// slugs and page numbers are never stored in the route cache. The route cache lives in memory (next.config.mjs,
// isrFlushToDisk: false), so what is stored shows in the answer: a second request for a stored page is a HIT.
import fs from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";

/** How the route cache answered one request for `path` (`HIT` when a stored entry did); callers poll it while a new entry is stored. */
async function cacheState(request: APIRequestContext, path: string): Promise<string | undefined> {
  return (await request.get(path, { maxRedirects: 0 })).headers()["x-nextjs-cache"];
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).map((f) => path.join(dir, f));
}

test.describe("hardening", () => {
  test.skip(({ isMobile }) => isMobile, "server behaviour: one project is enough");

  test("NUL bytes and malformed percent-encoding answer 400/404, never 500", async ({ request, page }) => {
    for (const url of [
      "/marketplace/%00",
      "/marketplace/abc%00def",
      "/marketplace?q=a%00b",
      "/marketplace?category=x%00",
      "/catalogue-page/%00",
      "/catalogue-page/abc",
      "/catalogue-page/99999",
    ]) {
      const res = await request.get(url);
      expect(res.status(), url).toBe(404);
    }
    for (const url of ["/marketplace/%E0%A4%A", "/api/mcp-agents/%E0%A4%A", "/marketplace/%ZZ"]) {
      const res = await request.get(url);
      expect([400, 404], url).toContain(res.status());
    }
    expect(await (await request.get("/marketplace/%E0%A4%A")).json()).toEqual({
      code: "invalid_address",
      message: "The address contains malformed percent-encoding.",
    });
    const api = await request.get("/api/mcp-agents?q=a%00b");
    expect(api.status()).toBe(400);
    expect((await api.json()).message).toMatch(/must not contain NUL bytes/);
    expect(JSON.stringify(await api.json())).not.toMatch(/select|listings/i);

    // What a person sees: the site's not-found page, not an error page.
    const shown = await page.goto("/marketplace?q=a%00b");
    expect(shown?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByText(/something went wrong|application error/i)).toHaveCount(0);
  });

  test("unknown slugs and page numbers are not stored in the route cache", async ({ request }) => {
    const marker = `nope-${Date.now().toString(36)}`;
    // A page number past the end of the catalogue that no earlier run asked for: six digits, as the route accepts.
    const pageNumber = String(900_000 + (Date.now() % 100_000));

    // A real page is stored under its number (a second request is answered from the cache), so the unknown ones
    // not being stored means something.
    expect((await request.get("/catalogue-page/2")).status()).toBe(200);
    await expect
      .poll(() => cacheState(request, "/catalogue-page/2"), { message: "page 2 in the route cache" })
      .toBe("HIT");

    for (let i = 0; i < 2; i++) {
      const unknown = await request.get(`/marketplace/${marker}`);
      expect(unknown.status()).toBe(404);
      expect(unknown.headers()["x-nextjs-cache"]).not.toBe("HIT");
      const past = await request.get(`/catalogue-page/${pageNumber}`);
      expect(past.status()).toBe(404);
      expect(past.headers()["x-nextjs-cache"]).not.toBe("HIT");
    }
    // And nothing is written under .next at run time, for these or any page.
    expect(
      filesUnder(path.resolve(".next")).filter(
        (f) =>
          f.includes(marker) ||
          (f.includes("catalogue-page") &&
            f.split(path.sep).some((part) => part === pageNumber || part.startsWith(`${pageNumber}.`))),
      ),
    ).toEqual([]);
  });

  test("a listing is cached under its slug only: its id in any letter case redirects there once, padded page numbers are 404", async ({
    request,
    page: browser,
  }) => {
    const cache = path.resolve(".next");
    const [listing] = (await (await request.get("/api/mcp-agents?sort=name&limit=1")).json()) as { id: string }[];
    const id = listing!.id.toLowerCase();
    const mixed = [...id].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join("");
    const spellings = [id, id.toUpperCase(), mixed];
    let canonical: string | undefined;
    for (const spelling of spellings) {
      const res = await request.get(`/marketplace/${spelling}`, { maxRedirects: 0 });
      expect(res.status(), spelling).toBe(308);
      // Once: Next wrote a page's own redirect's Location twice (the proxy answers these now).
      const locations = res
        .headersArray()
        .filter((h) => h.name.toLowerCase() === "location")
        .map((h) => h.value);
      expect(locations, spelling).toHaveLength(1);
      const location = new URL(locations[0]!, "http://x").pathname;
      canonical ??= location;
      expect(location, spelling).toBe(canonical);
    }
    const slug = canonical!.split("/").pop()!;
    expect(slug).toMatch(/^[a-z0-9-]+$/);
    expect(slug).not.toBe(id);
    const page = await request.get(canonical!);
    expect(page.status()).toBe(200);
    // The slug's own page (its canonical link), whatever markup the listing's name holds.
    expect(await page.text()).toMatch(new RegExp(`<link rel="canonical" href="[^"]*/marketplace/${slug}"`));
    // A browser following the id lands on the slug's page.
    await browser.goto(`/marketplace/${id.toUpperCase()}`);
    await expect(browser).toHaveURL(new RegExp(`/marketplace/${slug}$`));

    // Stored: the slug's page; never a redirect under any spelling of the id (each is a redirect again).
    await expect
      .poll(() => cacheState(request, canonical!), { message: "the slug's page in the route cache" })
      .toBe("HIT");
    for (const spelling of spellings) {
      const again = await request.get(`/marketplace/${spelling}`, { maxRedirects: 0 });
      expect(again.status(), spelling).toBe(308);
      expect(again.headers()["x-nextjs-cache"], spelling).not.toBe("HIT");
    }
    expect(filesUnder(cache).filter((f) => f.toLowerCase().includes(id))).toEqual([]);

    // Page numbers have one spelling: zero-padded ones are not pages (and not stored).
    for (const padded of ["01", "001", "0002"]) {
      for (let i = 0; i < 2; i++) {
        const res = await request.get(`/catalogue-page/${padded}`);
        expect(res.status(), padded).toBe(404);
        expect(res.headers()["x-nextjs-cache"], padded).not.toBe("HIT");
      }
    }
    expect(filesUnder(cache).filter((f) => f.includes("catalogue-page") && /[\\/]0\d/.test(f))).toEqual([]);
  });

  test("server actions answer every malformed body of the audit with a 4xx and a message, and still work", async ({
    request,
    baseURL,
  }) => {
    // The build's id of the password-reset action (the page's form calls it with `[{"email": …}]`).
    const manifest = JSON.parse(fs.readFileSync(".next/server/server-reference-manifest.json", "utf8")) as {
      node: Record<string, { exportedName?: string }>;
    };
    const id = Object.entries(manifest.node).find(([, a]) => a.exportedName === "requestPasswordResetLink")![0];
    const send = (body: string | Buffer, headers: Record<string, string> = {}) =>
      request.post("/forgot-password", {
        headers: { "next-action": id, origin: baseURL!, "content-type": "text/plain;charset=UTF-8", ...headers },
        data: body,
      });
    const cases: Array<[string, string | Buffer, Record<string, string>, number, string]> = [
      ["invalid JSON", '[{"email":', {}, 400, "invalid_form"],
      ["empty body", "", {}, 400, "invalid_form"],
      ["1e999", "[1e999]", {}, 400, "invalid_form"],
      ["50,000-deep nesting", "[".repeat(50_000) + "]".repeat(50_000), {}, 400, "invalid_form"],
      ["2 MB body", `["${"a".repeat(2_000_000)}"]`, {}, 413, "body_too_large"],
      ["broken multipart", "garbage", { "content-type": "multipart/form-data; boundary=xyz" }, 400, "invalid_form"],
      ["JSON content type", "[]", { "content-type": "application/json" }, 415, "unsupported_media_type"],
      ["dangling reference", '["$Q1"]', {}, 400, "invalid_form"],
      ["two ids", "[]", { "next-action": `${id}, 0000` }, 400, "unknown_action"],
      ["another build's id", "[]", { "next-action": "40" + "a".repeat(40) }, 409, "stale_action"],
      [
        "cross-origin",
        '[{"email":"a@b.co"}]',
        { origin: "http://evil.example", "sec-fetch-site": "cross-site" },
        403,
        "cross_site_request",
      ],
    ];
    for (const [label, body, headers, status, code] of cases) {
      const res = await send(body, headers);
      expect(res.status(), label).toBe(status);
      const answer = (await res.json()) as { code: string; message: string };
      expect(answer.code, label).toBe(code);
      expect(answer.message, label).toMatch(/^[A-Z][^\n]+\.$/);
      expect(JSON.stringify(answer), label).not.toMatch(/digest|at .+:\d+|Error/);
    }
    // The form's own call still reaches the action.
    const ok = await send(JSON.stringify([{ email: "nobody@example.com" }]));
    expect(ok.status()).toBe(200);
    expect(await ok.text()).toContain("we sent a link to reset its password");
  });

  test("Auth.js endpoints refuse large bodies with 413", async ({ request }) => {
    const res = await request.post("/api/nextauth/callback/password", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: `csrfToken=${"x".repeat(100 * 1024)}`,
    });
    expect(res.status()).toBe(413);
  });

  test("an MCP batch with no messages is a 400 JSON-RPC error", async ({ request }) => {
    const res = await request.post("/api/mcp", {
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      data: "[]",
    });
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
  });
});
