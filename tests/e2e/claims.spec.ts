import { expect, test, type Page } from "@playwright/test";
import { answerGitHub, signInWithGitHub, toast, uniqueLogin } from "./support/auth";
import { adminPage } from "./support/listing-flow";
import { referencePort } from "./support/ports";

// Claiming an imported listing, as its publisher sees it. The prepared database holds an
// unclaimed listing per project, imported as io.github.e2e-claimer-<project>/weather, and one imported under the
// reverse-DNS name com.example.claims-e2e/lookup (tests/e2e/support/prepare-db.ts).

/**
 * Full-page screenshots at 1280 and 390 px wide (`<path>.png`, `<path>-390.png`), leaving the page as it was; on the
 * phone nothing may run past the screen's edge (a long URL in an edit's diff once widened /account to 403 px).
 */
async function shoot(page: Page, path: string) {
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${path}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${path}-390.png`, fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} at 390 px`).toBeLessThanOrEqual(390);
  await page.setViewportSize(size);
}

test("the publisher claims an io.github listing by signing in with GitHub, then edits it while it stays listed", async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const project = testInfo.project.name;
  const owner = `e2e-claimer-${project}`;
  const detail = `/marketplace/claimable-weather-${project}`;

  // Signed out: the page names its upstream entry and offers no claim.
  await page.goto(detail);
  await expect(page.getByTestId("provenance")).toContainText(`From the MCP Registry as io.github.${owner}/weather`);
  await expect(page.getByRole("link", { name: "Claim this listing" })).toHaveCount(0);

  // Signed in as somebody else: the claim page explains the rule and why this account does not satisfy it.
  const stranger = uniqueLogin(testInfo, "stranger");
  await signInWithGitHub(page, stranger);
  await page.goto(detail);
  await page.getByRole("link", { name: "Claim this listing" }).click();
  await expect(page.getByRole("heading", { name: `Claim Claimable Weather ${project}` })).toBeVisible();
  await expect(page.getByTestId("claim-method")).toContainText(
    `Names under io.github.${owner}/ belong to the GitHub account @${owner} or, if that is an organisation, to its owners.`,
  );
  await expect(page.getByTestId("github-status")).toHaveText(
    `You are signed in as GitHub @${stranger}, and your last GitHub sign-in did not show you as @${owner} or as an owner of the organisation ${owner} (members who are not owners cannot claim its names).`,
  );
  await page.screenshot({ path: testInfo.outputPath("claim-github.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("claim-github-390.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // The publisher signs in with GitHub from the claim page: the listing is theirs at once.
  await page.getByRole("button", { name: "Sign in with GitHub to claim" }).click();
  // Only this sign-in asks GitHub to read organisation ownership; the login page's asks for email alone.
  await expect(page.locator("#scope")).toHaveText("read:user user:email read:org");
  await answerGitHub(page, owner);
  await expect(toast(page, "Success", "You have been logged in successfully.")).toBeVisible();
  await page.goto("/account");
  const claimed = page.getByRole("list", { name: "Claimed listings" }).getByRole("listitem");
  await expect(claimed).toHaveCount(1);
  await expect(claimed).toContainText(`Claimable Weather ${project}`);
  await expect(claimed).toContainText(`io.github.${owner}/weather`);
  await page.screenshot({ path: testInfo.outputPath("claimed-account.png"), fullPage: true });

  // Nobody is offered the claim any more.
  await page.goto(detail);
  await expect(page.getByTestId("provenance")).toBeVisible();
  await expect(page.getByRole("link", { name: "Claim this listing" })).toHaveCount(0);

  // The owner edits it like a submitted listing (moving it to their real server): the edit waits for review while
  // the approved version stays in the marketplace.
  const before = "Weather forecasts imported from the MCP Registry, waiting for their publisher to claim them.";
  const after = "Written by the publisher: forecasts for every city, paid per call.";
  const newServer = `http://127.0.0.1:${referencePort}/mcp?run=claimed-${project}`;
  await page.goto("/account");
  const entry = page
    .getByRole("list", { name: "Your servers" })
    .getByRole("listitem")
    .filter({ hasText: `Claimable Weather ${project}` });
  await entry.getByRole("link", { name: /Edit/ }).click();
  await expect(
    page.getByText(
      "Saving sends your changes to review; the approved version stays in the marketplace until an admin approves them.",
    ),
  ).toBeVisible();
  await page.getByLabel("Description").fill(after);
  await page.getByLabel("MCP Server URL").fill(newServer);
  await page.getByRole("button", { name: "Save and resubmit" }).click();
  await expect(toast(page, "Saved", "Your changes were sent for review.")).toBeVisible();
  await expect(page).toHaveURL(/\/account$/);
  await expect(entry.getByText("Approved", { exact: true })).toBeVisible();
  const notice = entry.getByTestId("edit-notice");
  await expect(notice).toContainText("Edit awaiting review");
  await expect(notice).toContainText(
    "The approved version stays in the marketplace until a reviewer approves the edit.",
  );
  await expect(notice.getByTestId("edit-changes")).toContainText(`DescriptionApproved: ${before}Edited: ${after}`);
  await expect(notice.getByTestId("edit-changes")).toContainText(
    `MCP Server URLApproved: https://e2e-claimer-${project}.github.io/weather/mcp` + `Edited: ${newServer}`,
  );
  await shoot(page, testInfo.outputPath("edit-awaiting-review"));

  // The edit page says so too, and starts from the pending edit.
  await entry.getByRole("link", { name: /Edit/ }).click();
  await expect(page.getByTestId("edit-notice")).toContainText("Edit awaiting review");
  await expect(page.getByLabel("Description")).toHaveValue(after);
  await shoot(page, testInfo.outputPath("edit-page-pending"));

  // The marketplace still shows the approved version, on the detail page and in search.
  await page.goto(detail);
  await expect(page.getByText(before).first()).toBeVisible();
  await expect(page.getByText(after)).toHaveCount(0);
  await page.goto(`/marketplace?q=${encodeURIComponent(`Claimable Weather ${project}`)}`);
  await expect(page.getByTestId("listing").filter({ hasText: `Claimable Weather ${project}` })).toContainText(
    "Weather forecasts imported from the MCP Registry",
  );

  // The reviewer sees the edit with its diff and its own check, and approves it.
  const admin = await adminPage(browser);
  await admin.setViewportSize(page.viewportSize()!);
  const queued = admin.getByTestId("edit-entry").filter({ hasText: `Claimable Weather ${project}` });
  await expect(async () => {
    await admin.goto("/admin/review");
    await expect(queued.getByText("MonetizedMCP server found, verified once approved")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(queued.getByTestId("edit-changes")).toContainText(`DescriptionApproved: ${before}Edited: ${after}`);
  await shoot(admin, testInfo.outputPath("review-pending-edit"));
  await queued.getByRole("button", { name: "Approve" }).click();
  await expect(
    toast(admin, "Approved", `The marketplace now shows the edited Claimable Weather ${project}.`),
  ).toBeVisible({ timeout: 20_000 });
  await expect(admin.getByText(`Claimable Weather ${project} — approved an edit by`)).toBeVisible();

  // Now the marketplace shows the new version, and the owner's notice is gone.
  await page.goto(detail);
  await expect(page.getByText(after).first()).toBeVisible();
  await expect(page.getByText(before)).toHaveCount(0);
  await page.goto(`/marketplace?q=${encodeURIComponent(`Claimable Weather ${project}`)}`);
  await expect(page.getByTestId("listing").filter({ hasText: `Claimable Weather ${project}` })).toContainText(
    "Written by the publisher",
  );
  await page.goto("/account");
  await expect(entry.getByText("Approved", { exact: true })).toBeVisible();
  await expect(entry.getByTestId("edit-notice")).toHaveCount(0);
  await admin.context().close();
});

test("a reverse-DNS listing's claim page gives a one-time token and says exactly where to publish it", async ({
  page,
}, testInfo) => {
  await signInWithGitHub(page, uniqueLogin(testInfo, "domain-owner"));
  await page.goto("/marketplace/claimable-lookup");
  await page.getByRole("link", { name: "Claim this listing" }).click();
  await expect(page.getByRole("heading", { name: "Prove you control claims-e2e.example.com" })).toBeVisible();
  await page.getByRole("button", { name: "Get a claim token" }).click();
  const token = page.getByTestId("claim-token");
  await expect(token).toContainText(/agora-claim=[A-Za-z0-9_-]{43}/);
  await expect(token).toContainText(
    "Serve the record as the whole body of https://claims-e2e.example.com/.well-known/agora-claim: status 200, no redirect, at most 4 KB",
  );
  await expect(token).toContainText("Add a TXT record at the apex of claims-e2e.example.com");
  await expect(token.getByRole("button", { name: "Verify the file" })).toBeVisible();
  await expect(token.getByRole("button", { name: "Verify the DNS record" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("claim-domain.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("claim-domain-390.png"), fullPage: true });
});

test("a listing whose name does not cover its server's host is claimed with the claim file on the server's origin", async ({
  page,
}, testInfo) => {
  await signInWithGitHub(page, uniqueLogin(testInfo, "host-owner"));
  await page.goto("/marketplace/claimable-host");
  await page.getByRole("link", { name: "Claim this listing" }).click();
  await expect(page.getByRole("heading", { name: "Prove you run api.host-e2e.example.net" })).toBeVisible();
  await expect(page.getByTestId("claim-method")).toContainText(
    "The name io.github.e2e-someone/api does not cover the server's host api.host-e2e.example.net",
  );
  await page.getByRole("button", { name: "Get a claim token" }).click();
  const token = page.getByTestId("claim-token");
  await expect(token).toContainText(/agora-claim=[A-Za-z0-9_-]{43}/);
  await expect(token).toContainText(
    "Serve the record as the whole body of https://api.host-e2e.example.net/.well-known/agora-claim: status 200, no redirect, at most 4 KB",
  );
  await expect(token.getByRole("button", { name: "Verify the file" })).toBeVisible();
  // A host proves itself with the file on its own origin only.
  await expect(token.getByRole("button", { name: "Verify the DNS record" })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("claim-host.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("claim-host-390.png"), fullPage: true });
});
