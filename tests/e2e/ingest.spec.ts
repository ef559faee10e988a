import { expect, test } from "@playwright/test";
import { signInWithGitHub, toast, uniqueLogin } from "./support/auth";
import { adminPage } from "./support/listing-flow";

// Ingestion end to end: an admin runs ingestion by hand from /admin/sources against the run's local upstream
// registry (tests/e2e/support/upstream-registry.ts); its two paid servers become listings a person can find with
// the marketplace's source filter, each naming its upstream entry, the deprecated one with a notice. One run: it
// ingests once into the shared database.
test.describe.configure({ mode: "serial" });

test("admin runs ingestion; imported listings show with their source, filter and deprecation notice", async ({
  page,
  browser,
  isMobile,
  request,
}, testInfo) => {
  test.skip(isMobile, "ingests once into the shared database; the phone layout is checked below");
  test.setTimeout(120_000);

  // Admins only.
  await signInWithGitHub(page, uniqueLogin(testInfo, "not-admin"));
  const refused = await page.goto("/admin/sources");
  expect(refused?.status()).toBe(403);

  const admin = await adminPage(browser);
  await admin.goto("/admin/sources");
  await expect(admin.getByRole("heading", { name: "Ingestion sources" })).toBeVisible();
  const source = admin.getByTestId("source").filter({ hasText: "MCP Registry" });
  await expect(source.getByText("Last run: never")).toBeVisible();
  await admin.getByRole("button", { name: "Run now" }).click();
  await expect(toast(admin, "Ingestion started")).toBeVisible({ timeout: 20_000 });

  // The run reads the registry, probes both servers and lists them: the counts say so.
  const counts = source.getByRole("table");
  await expect(async () => {
    await admin.reload();
    await expect(counts.getByRole("cell")).toHaveText(["2", "2", "2", "2", "0", "0"], { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(source.getByText("Last run: never")).toHaveCount(0);
  await expect(source.getByText(/High-water mark: .*2026/)).toBeVisible();
  await admin.screenshot({ path: testInfo.outputPath("admin-sources.png"), fullPage: true });

  // The marketplace's source filter shows exactly the imported servers.
  await page.goto("/marketplace");
  await expect(page.locator("form[role=search][data-ready=true]")).toBeVisible();
  await page.getByLabel("Source").selectOption("mcp-registry");
  await expect(page).toHaveURL(/source=mcp-registry/);
  const results = page.getByRole("main").getByRole("link", { name: /warppay402-server|mcp-server/ });
  await expect(page.getByText("warppay402-server").first()).toBeVisible();
  await expect(page.getByText("AI-Powered Web Scraper")).toHaveCount(0); // a sample listing, submitted to Agora
  expect(await results.count()).toBeGreaterThan(0);
  await page.screenshot({ path: testInfo.outputPath("marketplace-source-filter.png"), fullPage: true });

  // The deprecated one: its detail page names the upstream entry and carries the notice.
  await page.goto("/marketplace/mcp-server");
  await expect(page.getByTestId("provenance")).toHaveText("From the MCP Registry as io.decisionrules/mcp-server");
  await expect(page.getByTestId("deprecated-notice")).toContainText("Deprecated upstream.");
  // Where it was first published, by name and URL.
  await expect(page.getByTestId("provenance-origin")).toHaveText(
    /^First published in MCP Registry \(http:\/\/127\.0\.0\.1:\d+\)\.$/,
  );
  await page.screenshot({ path: testInfo.outputPath("detail-deprecated.png"), fullPage: true });
  await page.goto("/marketplace/warppay402-server");
  await expect(page.getByTestId("provenance")).toHaveText(
    "From the MCP Registry as io.github.golfgolfgolf200/warppay402-server",
  );
  await expect(page.getByTestId("deprecated-notice")).toHaveCount(0);

  // The APIs filter the same way and keep the upstream name.
  const agents = (await (await request.get("/api/mcp-agents?source=mcp-registry")).json()) as Array<{
    name: string;
    source: string;
    upstream: { name: string; status: string };
  }>;
  // (Other specs import listings of their own, e.g. to claim them: only the source is asserted of those.)
  expect(agents.every((a) => a.source === "mcp-registry")).toBe(true);
  expect(agents.map((a) => [a.upstream.name, a.upstream.status])).toEqual(
    expect.arrayContaining([
      ["io.decisionrules/mcp-server", "deprecated"],
      ["io.github.golfgolfgolf200/warppay402-server", "active"],
    ]),
  );
  expect(agents.map((a) => a.name)).not.toContain("AI-Powered Web Scraper");
  const registry = (await (await request.get("/v0.1/servers?source=mcp-registry")).json()) as {
    servers: Array<{ server: { name: string } }>;
  };
  expect(registry.servers.map((s) => s.server.name)).toEqual(
    expect.arrayContaining(["io.decisionrules/mcp-server", "io.github.golfgolfgolf200/warppay402-server"]),
  );
  expect(registry.servers).toHaveLength(agents.length);
  expect((await request.get("/api/mcp-agents?source=elsewhere")).status()).toBe(400);

  // The phone layout of the new screens.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/marketplace/mcp-server");
  await page.screenshot({ path: testInfo.outputPath("detail-deprecated-phone.png"), fullPage: true });
  await admin.setViewportSize({ width: 390, height: 844 });
  await admin.goto("/admin/sources");
  await admin.screenshot({ path: testInfo.outputPath("admin-sources-phone.png"), fullPage: true });
  await page.goto("/marketplace?source=mcp-registry");
  await page.screenshot({ path: testInfo.outputPath("marketplace-source-filter-phone.png"), fullPage: true });
});
