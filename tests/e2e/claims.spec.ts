import { expect, test } from "@playwright/test";
import { answerGitHub, signInWithGitHub, toast, uniqueLogin } from "./support/auth";

// Claiming an imported listing (issue 27, item 5), as its publisher sees it. The prepared database holds an
// unclaimed listing per project, imported as io.github.e2e-claimer-<project>/weather, and one imported under the
// reverse-DNS name com.example.claims-e2e/lookup (tests/e2e/support/prepare-db.ts).

test("the publisher claims an io.github listing by signing in with GitHub, then edits it", async ({ page }, testInfo) => {
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
  await expect(page.getByTestId("claim-method")).toContainText(`Names under io.github.${owner}/ belong to the GitHub account @${owner} or, if that is an organisation, to its owners.`);
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

  // The owner edits it like a submitted listing: it goes back to review.
  await page.goto("/account");
  const entry = page.getByRole("list", { name: "Your servers" }).getByRole("listitem").filter({ hasText: `Claimable Weather ${project}` });
  await entry.getByRole("link", { name: /Edit/ }).click();
  await page.getByLabel("Description").fill("Written by the publisher: forecasts for every city, paid per call.");
  await page.getByRole("button", { name: "Save and resubmit" }).click();
  await expect(toast(page, "Saved", "Your changes were sent for review.")).toBeVisible();
  await page.goto("/account");
  await expect(page.getByRole("list", { name: "Your servers" }).getByRole("listitem").filter({ hasText: `Claimable Weather ${project}` }).getByText("Pending review")).toBeVisible();
});

test("a reverse-DNS listing's claim page gives a one-time token and says exactly where to publish it", async ({ page }, testInfo) => {
  await signInWithGitHub(page, uniqueLogin(testInfo, "domain-owner"));
  await page.goto("/marketplace/claimable-lookup");
  await page.getByRole("link", { name: "Claim this listing" }).click();
  await expect(page.getByRole("heading", { name: "Prove you control claims-e2e.example.com" })).toBeVisible();
  await page.getByRole("button", { name: "Get a claim token" }).click();
  const token = page.getByTestId("claim-token");
  await expect(token).toContainText(/agora-claim=[A-Za-z0-9_-]{43}/);
  await expect(token).toContainText("Serve the record as the whole body of https://claims-e2e.example.com/.well-known/agora-claim: status 200, no redirect, at most 4 KB");
  await expect(token).toContainText("Add a TXT record at the apex of claims-e2e.example.com");
  await expect(token.getByRole("button", { name: "Verify the file" })).toBeVisible();
  await expect(token.getByRole("button", { name: "Verify the DNS record" })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("claim-domain.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("claim-domain-390.png"), fullPage: true });
});

test("a listing whose name does not cover its server's host is claimed with the claim file on the server's origin", async ({ page }, testInfo) => {
  await signInWithGitHub(page, uniqueLogin(testInfo, "host-owner"));
  await page.goto("/marketplace/claimable-host");
  await page.getByRole("link", { name: "Claim this listing" }).click();
  await expect(page.getByRole("heading", { name: "Prove you run api.host-e2e.example.net" })).toBeVisible();
  await expect(page.getByTestId("claim-method")).toContainText("The name io.github.e2e-someone/api does not cover the server's host api.host-e2e.example.net");
  await page.getByRole("button", { name: "Get a claim token" }).click();
  const token = page.getByTestId("claim-token");
  await expect(token).toContainText(/agora-claim=[A-Za-z0-9_-]{43}/);
  await expect(token).toContainText("Serve the record as the whole body of https://api.host-e2e.example.net/.well-known/agora-claim: status 200, no redirect, at most 4 KB");
  await expect(token.getByRole("button", { name: "Verify the file" })).toBeVisible();
  // A host proves itself with the file on its own origin only.
  await expect(token.getByRole("button", { name: "Verify the DNS record" })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("claim-host.png"), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("claim-host-390.png"), fullPage: true });
});
