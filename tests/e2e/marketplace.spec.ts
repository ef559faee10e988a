import fs from "node:fs";
import { siteOrigin } from "./support/deployment";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

// Other specs (the review flow) may approve listings during the run, so counts and the newest listing
// are read from the public API at the moment of the test instead of being fixed numbers.
async function approvedTotal(request: APIRequestContext): Promise<number> {
  const res = await request.get("/api/mcp-agents?limit=1");
  return Number(res.headers()["x-total-count"]);
}
async function newestName(request: APIRequestContext): Promise<string> {
  const [first] = (await (await request.get("/api/mcp-agents?sort=newest&limit=1")).json()) as { name: string }[];
  return first!.name;
}

const cards = (page: Page) => page.getByTestId("listing");

/** Opens a marketplace URL and waits until its controls are hydrated and interactive. */
async function open(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator('form[role="search"][data-ready="true"]')).toBeAttached();
}
// The page's JavaScript, not its stylesheets (held-back CSS would hold the HTML's own inline scripts, and the page).
const SCRIPT_CHUNKS = /\/_next\/static\/chunks\/.*\.js(\?|$)/;
const cardNames = (page: Page) => cards(page).getByRole("heading").allInnerTexts();

/** Marks the document so a test can tell a client-side update from a full page load. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
}
const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

test.describe("marketplace", () => {
  test("shows the title, subtitle, a 24-card grid and the total", async ({ page, request }) => {
    const TOTAL = await approvedTotal(request);
    expect(TOTAL).toBeGreaterThanOrEqual(43); // 42 approved sample listings + the markup fixture
    // Other specs add listings while the server runs (approvals, an ingestion run); the cached catalogue page is
    // revalidated by each, and a reload at most later shows the count the API gives.
    await expect(async () => {
      await page.goto("/marketplace");
      await expect(page.getByText(`of ${TOTAL} servers`)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByRole("heading", { level: 1, name: "MCP Server Marketplace" })).toBeVisible();
    await expect(page.getByText("Discover and Transact with MonetizedMCP servers").first()).toBeVisible();
    await expect(cards(page)).toHaveCount(24);
    await expect(page.getByRole("tab", { name: "Grid View" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByText("Pending Review Example")).toHaveCount(0);
  });

  test("search matches name, description and category in any case, without a full reload", async ({ page }) => {
    await open(page, "/marketplace");
    await markDocument(page);
    const search = page.getByRole("searchbox", { name: "Search MCP servers" });

    await search.fill("bOBA oRDER");
    await expect(page).toHaveURL(/q=bOBA\+oRDER/);
    await expect.poll(() => cardNames(page)).toEqual(["Boba Order Bot"]);

    await search.fill("BUBBLE TEA"); // description only
    await expect.poll(() => cardNames(page)).toEqual(["Boba Order Bot"]);

    await search.fill("lifestyle"); // category only
    await expect.poll(() => cardNames(page)).toEqual(["Boba Order Bot", "Recipe Planner"]);
    expect(await sameDocument(page)).toBe(true);
  });

  test("a search puts the best match first: Relevance is the default sort with a query, the others stay selectable", async ({
    page,
  }) => {
    test.slow(); // eight server round trips in one test
    await open(page, "/marketplace");
    const sort = page.getByRole("combobox", { name: "Sort" });
    await expect(sort).toHaveValue("popular");
    await expect(sort.locator("option")).toHaveText(["Relevance", "Popular", "Most purchased", "Newest", "Name"]);
    const search = page.getByRole("searchbox", { name: "Search MCP servers" });

    await search.fill("weather");
    await expect(page).toHaveURL(/\?q=weather$/);
    await expect(sort).toHaveValue("relevance");
    await expect.poll(async () => (await cardNames(page))[0]).toBe("Weather Now");

    await search.fill("geocodr"); // a typo still finds it
    await expect.poll(async () => (await cardNames(page))[0]).toBe("Geocoder");

    await search.fill("exchange rates"); // two words, found in a description
    await expect.poll(async () => (await cardNames(page))[0]).toBe("Currency Converter");

    await search.fill("data");
    await expect.poll(async () => (await cardNames(page))[0]).not.toBe("Currency Converter");
    await sort.selectOption("name");
    await expect(page).toHaveURL(/q=data&sort=name/);
    await expect
      .poll(async () => {
        const names = (await cardNames(page)).map((n) => n.toLowerCase());
        return names.length > 1 && names.join("\n") === [...names].sort().join("\n");
      })
      .toBe(true);
    await sort.selectOption("relevance");
    await expect(page).toHaveURL(/\?q=data$/);
    await expect(sort).toHaveValue("relevance");

    await page.getByRole("button", { name: "Clear search" }).click();
    await expect(page).toHaveURL(/\/marketplace$/);
    await expect(sort).toHaveValue("popular");
  });

  test("category, price and sort filters apply and land in the URL", async ({ page, request }) => {
    await open(page, "/marketplace");
    await page.getByRole("combobox", { name: "Category" }).selectOption("Travel");
    await expect(page).toHaveURL(/category=Travel/);
    await expect.poll(() => cardNames(page)).toEqual(["Flight Finder", "Route Planner"]);

    await page.getByRole("combobox", { name: "Category" }).selectOption("all");
    await page.getByRole("combobox", { name: "Price" }).selectOption("free");
    await expect(page).toHaveURL(/price=free/);
    await expect(cards(page).first()).toBeVisible();
    const prices = await page.getByTestId("price").allInnerTexts();
    expect(prices.length).toBeGreaterThan(3);
    expect(prices.every((p) => p === "Free")).toBe(true);

    await page.getByRole("combobox", { name: "Price" }).selectOption("paid");
    await expect(page).toHaveURL(/price=paid/);
    await expect
      .poll(async () => (await page.getByTestId("price").allInnerTexts()).some((p) => p === "Free"))
      .toBe(false);

    await page.getByRole("combobox", { name: "Price" }).selectOption("all");
    await page.getByRole("combobox", { name: "Sort" }).selectOption("name");
    await expect(page).toHaveURL(/sort=name/);
    await expect.poll(async () => (await cardNames(page))[0]).toBe("<script>window.__xss=1</script>Markup Probe");
    const names = (await cardNames(page)).map((n) => n.toLowerCase());
    expect(names).toEqual([...names].sort());

    await page.getByRole("combobox", { name: "Sort" }).selectOption("newest");
    await expect(page).toHaveURL(/sort=newest/);
    await expect.poll(async () => (await cardNames(page))[0]).toBe(await newestName(request));
  });

  test("popular puts verified listings first; badges mark New and Verified", async ({ page }) => {
    await page.goto("/marketplace?view=list");
    await expect(page.getByRole("tab", { name: "List View" })).toHaveAttribute("aria-selected", "true");
    const rows = cards(page);
    await expect(rows).toHaveCount(24);
    const verified = await rows.evaluateAll((els) => els.map((el) => el.textContent?.includes("Verified") ?? false));
    const firstPlain = verified.indexOf(false);
    expect(firstPlain).toBeGreaterThan(0);
    expect(verified.slice(firstPlain).every((v) => !v)).toBe(true);
    const boba = rows.filter({ hasText: "Boba Order Bot" });
    await expect(boba.getByText("Verified")).toBeVisible();
    await expect(boba.getByText("New", { exact: true })).toBeVisible();
    const currency = rows.filter({ hasText: "Currency Converter" }); // 300 days old
    await expect(currency.getByText("New", { exact: true })).toHaveCount(0);
  });

  test("switching views keeps the filters, and reload and back restore the state", async ({ page }) => {
    await open(page, "/marketplace?category=Web3");
    const count = await cards(page).count();
    await page.getByRole("tab", { name: "List View" }).click();
    await expect(page).toHaveURL(/category=Web3.*view=list|view=list.*category=Web3/);
    await expect(page.getByRole("tab", { name: "List View" })).toHaveAttribute("aria-selected", "true");
    await expect(cards(page)).toHaveCount(count);
    await page.reload();
    await expect(page.getByRole("tab", { name: "List View" })).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("combobox", { name: "Category" })).toHaveValue("Web3");

    await page.getByRole("combobox", { name: "Price" }).selectOption("free");
    await expect(page).toHaveURL(/price=free/);
    await page.goBack();
    await expect(page).not.toHaveURL(/price=free/);
    await expect(page.getByRole("combobox", { name: "Price" })).toHaveValue("all");
    await expect(cards(page)).toHaveCount(count);
  });

  test("no match shows the empty state; Clear all filters keeps sort and view", async ({ page }) => {
    await page.goto("/marketplace?q=zzzz-nothing&category=AI&price=paid&sort=newest&view=list");
    await expect(page.getByText("No MCP servers found matching your criteria.")).toBeVisible();
    await page.getByRole("link", { name: "Clear all filters" }).click();
    await expect(page).toHaveURL(/\/marketplace\?sort=newest&view=list$/);
    await expect(page.getByRole("searchbox", { name: "Search MCP servers" })).toHaveValue("");
    await expect(page.getByRole("combobox", { name: "Category" })).toHaveValue("all");
    await expect(page.getByRole("combobox", { name: "Price" })).toHaveValue("all");
    await expect(page.getByRole("combobox", { name: "Sort" })).toHaveValue("newest");
    await expect(page.getByRole("tab", { name: "List View" })).toHaveAttribute("aria-selected", "true");
    await expect(cards(page)).toHaveCount(24);
  });

  test("a search typed before the page is interactive is kept and run once it is", async ({ page }, testInfo) => {
    // The page's scripts held back: what a person meets on a slow connection right after the HTML arrived.
    let release!: () => void;
    const scripts = new Promise<void>((resolve) => (release = resolve));
    await page.route(SCRIPT_CHUNKS, async (route) => {
      await scripts;
      await route.continue();
    });
    await page.goto("/marketplace", { waitUntil: "domcontentloaded" });
    const search = page.getByRole("searchbox", { name: "Search MCP servers" });
    await search.fill("weather");
    await expect(page.locator('form[role="search"]')).not.toHaveAttribute("data-ready", "true");
    release();
    await expect(page.locator('form[role="search"]')).toHaveAttribute("data-ready", "true", { timeout: 20_000 });
    await expect(page).toHaveURL(/[?&]q=weather(&|$)/);
    await expect(search).toHaveValue("weather");
    await expect(cards(page).first()).toContainText(/weather/i);
    await page.screenshot({ path: testInfo.outputPath("search-before-hydration.png") });
  });

  test("Enter before the page is interactive submits the search as a plain form", async ({ page }) => {
    let release!: () => void;
    const scripts = new Promise<void>((resolve) => (release = resolve));
    await page.route(SCRIPT_CHUNKS, async (route) => {
      await scripts;
      await route.continue();
    });
    await page.goto("/marketplace", { waitUntil: "domcontentloaded" });
    await page.getByRole("searchbox", { name: "Search MCP servers" }).fill("weather");
    await page.getByRole("searchbox", { name: "Search MCP servers" }).press("Enter");
    await expect(page).toHaveURL(/[?&]q=weather(&|$)/);
    release();
    await expect(page.getByRole("searchbox", { name: "Search MCP servers" })).toHaveValue("weather");
    await expect(cards(page).first()).toContainText(/weather/i);
  });

  test("a search typed just before 'Clear all filters' does not come back after the clear", async ({ page }) => {
    await open(page, "/marketplace?category=AI&price=paid&q=zzzz-nothing");
    await expect(page.getByText("No MCP servers found matching your criteria.")).toBeVisible();
    // Typed, then the clear clicked within the search's 300 ms pause.
    await page.getByRole("searchbox", { name: "Search MCP servers" }).fill("zzzz-still-nothing");
    await page.getByRole("link", { name: "Clear all filters" }).click();
    await expect(page).toHaveURL(/\/marketplace$/);
    await expect(cards(page)).toHaveCount(24);
    // Well past the pause: the typed search, category and price stay cleared.
    await page.waitForTimeout(1_000);
    await expect(page).toHaveURL(/\/marketplace$/);
    await expect(page.getByRole("searchbox", { name: "Search MCP servers" })).toHaveValue("");
    await expect(page.getByRole("combobox", { name: "Category" })).toHaveValue("all");
    await expect(page.getByRole("combobox", { name: "Price" })).toHaveValue("all");
    await expect(cards(page)).toHaveCount(24);
  });

  test("pagination links are crawlable and pages do not overlap", async ({ page, request }) => {
    const TOTAL = await approvedTotal(request);
    await expect(async () => {
      await page.goto("/marketplace");
      await expect(page.getByText(`of ${TOTAL} servers`)).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    const first = await cardNames(page);
    const pager = page.getByRole("navigation", { name: "Pagination" });
    await expect(pager.getByRole("link", { name: "Page 2" })).toHaveAttribute("href", "/marketplace?page=2");
    await pager.getByRole("link", { name: /Next/ }).click();
    await expect(page).toHaveURL(/page=2/);
    // The second page is cached on its own: after a revalidation its first visit may still be the older copy.
    const onSecond = Math.min(24, TOTAL - 24);
    await expect(async () => {
      if ((await cards(page).count()) !== onSecond) await page.reload();
      await expect(cards(page)).toHaveCount(onSecond, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    const second = await cardNames(page);
    expect(second.filter((n) => first.includes(n))).toEqual([]);
    await expect(pager.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/marketplace\?page=2$/);
  });

  test("filtered views are noindex with a canonical to the catalogue", async ({ page }) => {
    await page.goto("/marketplace?category=AI");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/marketplace$/);
  });

  test("keyboard users can search and open a listing", async ({ page, isMobile }) => {
    test.skip(isMobile, "keyboard flow checked on desktop");
    await open(page, "/marketplace");
    await page.getByRole("searchbox", { name: "Search MCP servers" }).focus();
    await page.keyboard.type("weather");
    await page.keyboard.press("Enter");
    // Other specs list weather servers of their own (a claimable import, a test-bought server): the best match leads.
    await expect.poll(async () => (await cardNames(page))[0]).toBe("Weather Now");
    await page.getByRole("link", { name: "Weather Now", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL("/marketplace/weather-now");
  });
});

test.describe("listing detail", () => {
  test("shows everything a buyer needs", async ({ page, context, browserName }) => {
    await page.goto("/marketplace");
    await page.getByRole("link", { name: "AI-Powered Web Scraper" }).click();
    await expect(page).toHaveURL("/marketplace/ai-powered-web-scraper");
    await expect(page.getByRole("heading", { level: 1, name: "AI-Powered Web Scraper" })).toBeVisible();
    await expect(page.getByText("$0.02").first()).toBeVisible();
    // No probe has reached this sample server: no badge, and the page says no check has run.
    await expect(page.getByTestId("status-badges").getByText("Verified")).toHaveCount(0);
    await expect(page.getByText("No automatic checks yet.")).toBeVisible();
    await expect(page.getByText("https://scraper.mcpdemo.example/mcp")).toBeVisible();
    await expect(page.getByRole("link", { name: /scraper\.mcpdemo\.example/ })).toHaveAttribute("target", "_blank");
    await expect(page.getByRole("heading", { name: "How to connect" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Listed" })).toBeVisible();
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}");
    expect(ld.name).toBe("AI-Powered Web Scraper");

    if (browserName === "chromium") {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.getByRole("button", { name: "Copy URL" }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("https://scraper.mcpdemo.example/mcp");
    }
  });

  test("a probed listing shows its tools, prices, wallet, last check and badge", async ({ page }, testInfo) => {
    await page.goto("/marketplace/weather-now");
    await expect(page.getByTestId("status-badges").getByText("Verified")).toBeVisible();
    await expect(page.getByTestId("last-checked")).toContainText(/Last checked .+ UTC: reachable/);
    // The reference server (the provider kit) sells each paid item through make-purchase and through an x402 tool
    // of its own: one row per item, naming the tool, at the item's exact price.
    const table = page.getByTestId("tools-and-prices");
    const report = table.getByRole("row", { name: /^Market report/ });
    await expect(report).toHaveCount(1);
    await expect(report.getByRole("cell").last()).toHaveText("$0.25 USDC");
    await expect(report).toContainText("Also sold over x402 as the tool market-report");
    await expect(table.getByRole("row", { name: /^Current weather/ })).toContainText(
      "Also sold over x402 as the tool weather",
    );
    const firstCells = (
      await table
        .locator("tbody tr")
        .evaluateAll((rows) => rows.map((r) => r.querySelector("td > :first-child")?.textContent ?? ""))
    ).map((n) => n.trim());
    expect(firstCells.slice(0, 4)).toEqual(["Current weather", "Market report", "Page screenshot", "Logo render"]);
    for (const x402Tool of ["weather", "market-report", "logo-render"]) expect(firstCells).not.toContain(x402Tool);
    expect(new Set(firstCells).size).toBe(firstCells.length);
    await expect(page.getByText(/Accepts USDC_BASE_SEPOLIA → 0x/)).toBeVisible();
    // The tools table scrolls inside its frame; the page itself never gets wider than the screen (a phone included).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      page.viewportSize()!.width,
    );
    await page.screenshot({ path: testInfo.outputPath("probed-detail.png"), fullPage: true });
  });

  test("a free listing says Free", async ({ page }) => {
    await page.goto("/marketplace/currency-converter");
    await expect(page.getByTestId("price").first()).toHaveText("Free");
  });

  test("unknown and unapproved listings are 404", async ({ page }) => {
    for (const path of [
      "/marketplace/no-such-server",
      "/marketplace/pending-review-example",
      "/marketplace/rejected-example",
    ]) {
      const res = await page.goto(path);
      expect(res?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    }
  });

  test("a crawler's odd addresses: one cached page per listing, unknown listings never stored", async ({ request }) => {
    // Bad input. The canonical address renders once; a query string or a percent-encoded slug is that page.
    expect((await request.get("/marketplace/weather-now")).status()).toBe(200);
    for (const path of ["/marketplace/weather-now?utm_source=crawler", "/marketplace/weather%2Dnow"]) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(200);
      // Served from the stored page (STALE once it is over five minutes old), never rendered as an entry of its own.
      expect(["HIT", "STALE"], path).toContain(res.headers()["x-nextjs-cache"]);
      expect(await res.text(), path).toContain("Weather Now");
    }
    // Another letter case is no listing's slug; unknown slugs are 404 every time and never kept in the route cache.
    expect((await request.get("/marketplace/Weather-Now")).status()).toBe(404);
    for (let i = 0; i < 200; i++) expect((await request.get(`/marketplace/no-such-listing-${i}`)).status()).toBe(404);
    const again = await request.get("/marketplace/no-such-listing-0");
    expect(again.status()).toBe(404);
    expect(again.headers()["x-nextjs-cache"]).not.toBe("HIT");
    // The stored page is kept in memory, never written to disk: a crawl of 1,000,000 listings cannot fill it.
    const written = [".next/server/route-cache", ".next/standalone/.next/server/route-cache"].flatMap((dir) =>
      fs.existsSync(dir)
        ? fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.includes("weather-now"))
        : [],
    );
    expect(written).toEqual([]);
  });

  test("markup in listing text is shown as text and never runs", async ({ page }) => {
    await page.goto("/marketplace?q=markup");
    await expect(page.getByRole("heading", { name: "<script>window.__xss=1</script>Markup Probe" })).toBeVisible();
    await page.goto("/marketplace/markup-probe");
    await expect(page.getByText('<img src=x onerror="window.__xss=2"> This description')).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  });
});

test.describe("SEO", () => {
  test("sitemap lists static pages and approved listings only; robots points at it", async ({ request }) => {
    // /sitemap.xml is an index of sitemap files (split at 50,000 URLs); this catalogue fits in the first.
    const index = await (await request.get("/sitemap.xml")).text();
    expect(index).toContain("<sitemapindex");
    const first = /<loc>[^<]*(\/sitemap\/0\.xml)<\/loc>/.exec(index)?.[1];
    expect(first).toBe("/sitemap/0.xml");
    const sitemap = await (await request.get(first!)).text();
    expect(sitemap).toContain("/marketplace/ai-powered-web-scraper</loc>");
    expect(sitemap).toContain("/terms-of-service</loc>");
    expect(sitemap).not.toContain("pending-review-example");
    const robots = await (await request.get("/robots.txt")).text();
    expect(robots).toMatch(/Sitemap: .*\/sitemap\.xml/);
    // The Host directive takes a host name, not a URL: this site's own.
    expect(robots).toContain(`Host: ${new URL(siteOrigin).host}\n`);
    expect(robots).not.toMatch(/^Host: https?:/m);
  });

  test("marketplace and listings have Open Graph images", async ({ page, request }) => {
    for (const path of ["/marketplace", "/marketplace/weather-now"]) {
      await page.goto(path);
      const image = await page.locator('meta[property="og:image"]').getAttribute("content");
      const res = await request.get(new URL(image!).pathname + new URL(image!).search);
      expect(res.status()).toBe(200);
      expect(res.headers()["content-type"]).toBe("image/png");
    }
  });
});
