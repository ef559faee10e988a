// The steps several specs take to get a server listed: the provider submits it through /submit, the admin waits
// for the submission check's verdict in the review queue and approves it.
import { expect, type Browser, type Page } from "@playwright/test";
import { signInWithGitHub, toast } from "./auth";

export type Submission = { name: string; description: string; serverUrl: string; category?: string };

/** The provider signed in on `page` submits a server for review. */
export async function submitServer(
  page: Page,
  { name, description, serverUrl, category = "Data" }: Submission,
): Promise<void> {
  await page.goto("/submit");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Description").fill(description);
  await page.getByLabel("MCP Server URL").fill(serverUrl);
  await page.getByLabel("Categories", { exact: true }).fill(category);
  await page.keyboard.press("Enter");
  await page.getByRole("button", { name: "Submit for review" }).click();
  await expect(toast(page, "Success", "Your MonetizedMCP server has been submitted successfully")).toBeVisible();
}

/** A page of its own, signed in as the run's admin. */
export async function adminPage(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInWithGitHub(page, "e2e-admin");
  return page;
}

/** Approves the submission once its check (run in the background after submitting) found a MonetizedMCP server. */
export async function approveWhenVerified(admin: Page, name: string): Promise<void> {
  const entry = admin.getByTestId("queue-entry").filter({ hasText: name });
  await expect(async () => {
    await admin.goto("/admin/review");
    await expect(entry.getByText("MonetizedMCP server found, verified once approved")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await entry.getByRole("button", { name: "Approve" }).click();
  await expect(toast(admin, "Approved")).toBeVisible({ timeout: 20_000 });
}

/** Submits the server as the provider on `page` and has the admin approve it; returns the admin's page. */
export async function listServer(page: Page, browser: Browser, submission: Submission): Promise<Page> {
  await submitServer(page, submission);
  const admin = await adminPage(browser);
  await approveWhenVerified(admin, submission.name);
  return admin;
}
