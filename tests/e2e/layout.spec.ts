import { expect, test } from "@playwright/test";

test.describe("shared layout", () => {
  test("header turns opaque after scrolling more than 20px", async ({ page }) => {
    await page.goto("/");
    const header = page.getByTestId("site-header");
    await expect(header).toHaveAttribute("data-scrolled", "false");
    await page.evaluate(() => window.scrollTo(0, 15));
    await expect(header).toHaveAttribute("data-scrolled", "false");
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect(header).toHaveAttribute("data-scrolled", "true");
    await expect(header).toBeInViewport();
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(header).toHaveAttribute("data-scrolled", "false");
  });

  test("header links reach every main section", async ({ page, isMobile }) => {
    await page.goto("/");
    for (const [label, path, heading] of [
      ["How It Works", "/how-it-works", "How It Works"],
      ["Getting Started", "/getting-started", "Getting Started"],
      ["Marketplace", "/marketplace", "MCP Server Marketplace"],
      ["Submit Server", "/submit", "Submit MonetizedMCP Server"],
    ] as const) {
      if (isMobile) {
        await page.getByRole("button", { name: "Open menu" }).click();
        await page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: label }).click();
      } else {
        await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label }).click();
      }
      await expect(page).toHaveURL(path);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    }
  });

  test("mobile menu toggles open and closed", async ({ page, isMobile }) => {
    test.skip(!isMobile, "the toggle is only shown on narrow screens");
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    const toggle = page.getByRole("button", { name: "Open menu" });
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    const menu = page.getByRole("navigation", { name: "Mobile" });
    await expect(menu.getByRole("link")).toHaveText([
      "How It Works",
      "Getting Started",
      "Marketplace",
      "Submit Server",
      "Sign in",
    ]);
    await page.getByRole("button", { name: "Close menu" }).click();
    await expect(menu).toBeHidden();

    // Any navigation closes it, not only a press on one of its links: here the browser's back button.
    await page.getByRole("button", { name: "Open menu" }).click();
    await menu.getByRole("link", { name: "Getting Started" }).click();
    await expect(page).toHaveURL("/getting-started");
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect(menu).toBeVisible();
    await page.goBack();
    await expect(page).toHaveURL("/");
    await expect(menu).toBeHidden();
    await expect(page.getByRole("button", { name: "Open menu" })).toHaveAttribute("aria-expanded", "false");
  });

  test("navigation scrolls to the top", async ({ page }) => {
    await page.goto("/");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByRole("contentinfo").getByRole("link", { name: "Getting Started" }).click();
    await expect(page).toHaveURL("/getting-started");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("footer links open legal pages in a new tab and offer social and mail contact", async ({ page, context }) => {
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    for (const name of ["Terms of Service", "Privacy Policy"]) {
      await expect(footer.getByRole("link", { name })).toHaveAttribute("target", "_blank");
    }
    await expect(footer.getByRole("link", { name: /on X/ })).toHaveAttribute("href", /^https:\/\//);
    await expect(footer.getByRole("link", { name: /@/ })).toHaveAttribute("href", /^mailto:/);
    const [tab] = await Promise.all([
      context.waitForEvent("page"),
      footer.getByRole("link", { name: "Privacy Policy" }).click(),
    ]);
    await expect(tab).toHaveURL(/\/privacy-policy$/);
    await expect(tab.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
  });

  test("/alpha redirects home without leaving a history entry", async ({ page }) => {
    await page.goto("/terms-of-service");
    await page.goto("/alpha");
    await expect(page).toHaveURL("/");
    await page.goBack();
    await expect(page).toHaveURL("/terms-of-service");
  });

  test("unknown paths show the 404 page and log the path", async ({ page }) => {
    const logs: string[] = [];
    page.on("console", (m) => logs.push(m.text()));
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("404", { exact: true })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Oops! Page not found" })).toBeVisible();
    await expect.poll(() => logs.some((l) => l.includes("/no/such/page"))).toBe(true);
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL("/");
  });

  test("responses carry security headers", async ({ request }) => {
    const res = await request.get("/");
    const headers = res.headers();
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["strict-transport-security"]).toContain("max-age=");
  });
});

test.describe("security and privacy baseline", () => {
  test("a cross-site POST to the API is refused with 403", async ({ request }) => {
    const res = await request.post("/api/mailchimp/member", {
      headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json" },
      data: { email: "victim@example.com" },
    });
    expect(res.status()).toBe(403);
    expect(await res.json()).toEqual({ code: "cross_site_request", message: "Cross-site requests are not allowed." });
  });

  test("without a PostHog key the browser talks to no third party", async ({ page, baseURL }) => {
    const foreign: string[] = [];
    page.on("request", (r) => {
      const url = new URL(r.url());
      if (!["http:", "https:"].includes(url.protocol)) return;
      if (url.origin !== new URL(baseURL!).origin) foreign.push(r.url());
    });
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await page.goto("/marketplace");
    await page.waitForLoadState("networkidle");
    expect(foreign).toEqual([]);
  });
});
