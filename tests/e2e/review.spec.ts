import { expect, test, type Page } from "@playwright/test";
import { registerByApi, signInWithGitHub, toast, uniqueLogin } from "./support/auth";
import { adminPage, submitServer as submit } from "./support/listing-flow";
import { referencePort } from "./support/ports";

// The whole moderation story runs once, on the desktop project: it shares one admin account.
test.describe.configure({ mode: "serial" });

const submitServer = (page: Page, name: string, serverUrl: string) =>
  submit(page, {
    name,
    serverUrl,
    description: "A reference MonetizedMCP server used by the review flow tests.",
    category: "Dev Tools",
  });

test("submit → probe evidence → admin approves → public with price and Verified; a rejection reaches the provider only", async ({
  page,
  browser,
  isMobile,
  request,
}, testInfo) => {
  test.skip(isMobile, "one run is enough; it shares the admin account");
  test.setTimeout(120_000);
  const run = uniqueLogin(testInfo, "review");
  const good = `Reference Server ${run}`;
  const bad = `Broken Server ${run}`;

  await signInWithGitHub(page, uniqueLogin(testInfo, "provider"));
  await submitServer(page, good, `http://127.0.0.1:${referencePort}/mcp?run=${run}`);
  await submitServer(page, bad, `http://127.0.0.1:${referencePort}/not-mcp?run=${run}`);

  // The provider sees the probe's evidence on their servers page.
  await expect(async () => {
    await page.goto("/account");
    const entry = page.getByRole("listitem").filter({ hasText: good });
    await expect(entry.getByText("MonetizedMCP server found, verified once approved")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole("listitem").filter({ hasText: good }).getByText("Pending review")).toBeVisible();

  // A provider is not an admin.
  const forbidden = await page.goto("/admin/review");
  expect(forbidden?.status()).toBe(403);
  await expect(page.getByRole("heading", { name: "Admins only" })).toBeVisible();

  const admin = await adminPage(browser);
  await admin.goto("/admin/review");
  const entry = admin.getByTestId("queue-entry").filter({ hasText: good });
  await expect(entry.getByText("MonetizedMCP server found, verified once approved")).toBeVisible();
  await expect(entry.getByText("price-listing")).toBeVisible();
  await admin.screenshot({ path: testInfo.outputPath("review-queue.png"), fullPage: true });
  await entry.getByRole("button", { name: "Approve" }).click();
  await expect(toast(admin, "Approved")).toBeVisible({ timeout: 20_000 });
  await expect(admin.getByTestId("queue-entry").filter({ hasText: good })).toHaveCount(0);

  // Public at once, with the probed price and the Verified badge.
  await page.goto(`/marketplace?q=${encodeURIComponent(run)}`);
  const card = page.getByTestId("listing").filter({ hasText: good });
  await expect(card).toBeVisible();
  await expect(card.getByText("Verified")).toBeVisible();
  await expect(card.getByTestId("price")).not.toHaveText("Free");
  await card.getByRole("link", { name: good }).click();
  await expect(page.getByRole("heading", { name: "Tools and prices" })).toBeVisible();
  await expect(page.getByText("USDC_BASE_SEPOLIA").first()).toBeVisible();
  await expect(page.getByTestId("status-strip")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("verified-detail.png"), fullPage: true });

  // The broken one is rejected with a reason.
  const badEntry = admin.getByTestId("queue-entry").filter({ hasText: bad });
  await expect(badEntry.getByText(/Not reachable|not verifiable/)).toBeVisible();
  await badEntry.getByRole("button", { name: "Reject" }).click();
  await badEntry.getByLabel("Reason the provider will see").fill("The server does not answer MCP requests.");
  await badEntry.getByRole("button", { name: "Confirm rejection" }).click();
  await expect(toast(admin, "Rejected")).toBeVisible();
  await expect(admin.getByText(`${bad} — rejected by`)).toBeVisible();

  await page.goto("/account");
  const rejected = page.getByRole("listitem").filter({ hasText: bad });
  await expect(rejected.getByText("Rejected")).toBeVisible();
  await expect(rejected.getByText("Reason: The server does not answer MCP requests.")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("your-servers.png"), fullPage: true });
  await page.goto(`/marketplace?q=${encodeURIComponent(bad)}`);
  await expect(page.getByText("No MCP servers found matching your criteria.")).toBeVisible();
  const api = await request.get(`/api/mcp-agents?q=${encodeURIComponent(bad)}`);
  expect(await api.json()).toEqual([]);

  // The provider fixes the URL; the edit sends the listing back to the queue.
  await page.goto("/account");
  await page.getByRole("link", { name: `Edit ${bad}` }).click();
  await expect(page.getByRole("heading", { name: `Edit ${bad}` })).toBeVisible();
  await page.getByLabel("MCP Server URL").fill(`http://127.0.0.1:${referencePort}/mcp?run=${run}-fixed`);
  await page.getByRole("button", { name: "Save and resubmit" }).click();
  await expect(toast(page, "Saved", "Your changes were sent for review.")).toBeVisible();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("listitem").filter({ hasText: bad }).getByText("Pending review")).toBeVisible();
  await admin.goto("/admin/review");
  await expect(admin.getByTestId("queue-entry").filter({ hasText: bad })).toBeVisible();
});

test("an owner's edit after the reviewer opened the queue: Approve is refused, the reviewer sees the new text", async ({
  page,
  browser,
  isMobile,
}, testInfo) => {
  test.skip(isMobile, "one run is enough; it shares the admin account");
  test.setTimeout(90_000);
  const run = uniqueLogin(testInfo, "switch");
  const name = `Bait Server ${run}`;
  await signInWithGitHub(page, uniqueLogin(testInfo, "switcher"));
  await submitServer(page, name, `http://127.0.0.1:${referencePort}/mcp?run=${run}`);

  // The reviewer opens the queue and reads the harmless version.
  const admin = await adminPage(browser);
  await admin.goto("/admin/review");
  const entry = admin.getByTestId("queue-entry").filter({ hasText: name });
  await expect(entry.getByText("A reference MonetizedMCP server used by the review flow tests.")).toBeVisible();

  // Meanwhile the owner swaps the description.
  await page.goto("/account");
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await page.getByLabel("Description").fill("Switched after review: now forwards every call elsewhere.");
  await page.getByRole("button", { name: "Save and resubmit" }).click();
  await expect(toast(page, "Saved", "Your changes were sent for review.")).toBeVisible();

  // Approve on the stale page is refused with a clear message, and the queue shows the new text.
  await entry.getByRole("button", { name: "Approve" }).click();
  await expect(
    toast(admin, "Listing changed", "The owner changed this listing after you opened the queue."),
  ).toBeVisible({ timeout: 20_000 });
  const fresh = admin.getByTestId("queue-entry").filter({ hasText: name });
  await expect(fresh.getByText("Switched after review: now forwards every call elsewhere.")).toBeVisible();
  await expect(fresh.getByText("edited (version 2)")).toBeVisible();
  await admin.screenshot({ path: testInfo.outputPath("stale-approval.png"), fullPage: true });
  await page.goto("/account");
  await expect(page.getByRole("listitem").filter({ hasText: name }).getByText("Pending review")).toBeVisible();

  // Deciding on what is now shown works.
  await fresh.getByRole("button", { name: "Reject" }).click();
  await fresh.getByLabel("Reason the provider will see").fill("Changed its purpose during review.");
  await fresh.getByRole("button", { name: "Confirm rejection" }).click();
  await expect(toast(admin, "Rejected")).toBeVisible();
});

test("the queue marks a submitter whose email is not confirmed", async ({ browser, isMobile, request }, testInfo) => {
  test.skip(isMobile, "one run is enough; it shares the admin account");
  const run = uniqueLogin(testInfo, "unconfirmed").toLowerCase();
  const email = `${run}@users.example.com`;
  // A password account that never opened its verification link submits with its bearer token.
  const { token } = await registerByApi(request, email, "a long enough password", "Una Unconfirmed");
  const name = `Unconfirmed Server ${run}`;
  const created = await request.post("/api/mcp-agents", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name,
      description: "Submitted by an account with an unconfirmed email.",
      mcpServerUrl: `https://${run}.example.com/mcp`,
      categories: "AI",
    },
  });
  expect(created.status()).toBe(201);

  const admin = await adminPage(browser);
  await admin.goto("/admin/review");
  const entry = admin.getByTestId("queue-entry").filter({ hasText: name });
  await expect(entry.getByText(`by Una Unconfirmed · ${email} (email not confirmed)`)).toBeVisible();
});

test("signed-out visitors are sent to login from the review queue", async ({ page }) => {
  await page.goto("/admin/review");
  await expect(page).toHaveURL(/\/login$/);
});
