// The sign-in pages describe and offer only the ways in this deployment has configured. The suite's own site has a
// GitHub app (the product spec's words stand there: auth.spec.ts, submit.spec.ts); here the same build is started
// with none, as a fresh `npm run dev` or a deployment without AUTH_GITHUB_ID is, and read as a visitor reads it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { uniqueLogin } from "./support/auth";
import { appPort } from "./support/ports";
import { startProductionServer, type ProductionServer } from "./support/production-server";

const password = "correct horse battery staple";

test.describe("with no GitHub app configured", () => {
  test.describe.configure({ mode: "serial" });
  let server: ProductionServer;
  let dir: string;
  // Phones share the server: started once per project, on a port of its own.
  test.beforeAll(async () => {
    const testInfo = test.info();
    test.setTimeout(120_000);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-no-github-"));
    const port = appPort + (testInfo.project.name === "mobile" ? 33 : 32);
    server = await startProductionServer(port, {
      NODE_ENV: "production",
      SITE_URL: `http://127.0.0.1:${port}`,
      AUTH_SECRET: "no-github-spec-secret-0123456789abcdef",
      AUTH_GITHUB_ID: "",
      AUTH_GITHUB_SECRET: "",
      AUTH_GOOGLE_ID: "",
      AUTH_GOOGLE_SECRET: "",
      DATABASE_URL: "",
      PGLITE_DIR: dir,
      CHECK_SCHEDULE_DISABLED: "1",
      RATE_LIMIT_DISABLED: "1",
      UNSAFE_TEST_MODE: "1",
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Nothing on the page names GitHub or Google, or offers them. */
  async function offersEmailOnly(page: Page) {
    const text = (await page.locator("main").innerText()).toLowerCase();
    expect(text).not.toContain("github");
    expect(text).not.toContain("gmail");
    expect(text).not.toContain("google");
  }

  test("/login describes and offers email only", async ({ page }, testInfo) => {
    await page.goto(`${server.origin}/login`);
    await expect(page.getByRole("heading", { level: 1, name: "Login" })).toBeVisible();
    await expect(page.getByText("Sign in with your email and password")).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in with email" })).toHaveAttribute("href", "/login/email");
    await expect(page.getByRole("button", { name: /GitHub|Google/ })).toHaveCount(0);
    await offersEmailOnly(page);
    await page.screenshot({ path: testInfo.outputPath("login-email-only.png"), fullPage: true });
  });

  test("/submit's sign-in card describes and offers email only", async ({ page }, testInfo) => {
    await page.goto(`${server.origin}/submit`);
    await expect(page.getByText("Sign in with your email to list your server")).toBeVisible();
    await expect(page.getByRole("link", { name: "Sign in with email" })).toHaveAttribute("href", "/login/email");
    await expect(page.getByRole("link", { name: "Create an account" })).toHaveAttribute("href", "/register");
    await offersEmailOnly(page);
    await page.screenshot({ path: testInfo.outputPath("submit-email-only.png"), fullPage: true });
  });

  test("/register offers no GitHub, and a signed-in person is shown their account instead", async ({
    page,
  }, testInfo) => {
    await page.goto(`${server.origin}/register`);
    await expect(page.getByRole("heading", { level: 1, name: "Create your account" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "Sign in", exact: true })).toHaveAttribute(
      "href",
      "/login/email",
    );
    await expect(page.getByRole("link", { name: "Use GitHub" })).toHaveCount(0);
    await offersEmailOnly(page);
    await page.screenshot({ path: testInfo.outputPath("register-email-only.png"), fullPage: true });

    const email = `${uniqueLogin(testInfo, "nogithub")}@example.com`;
    await page.getByLabel("Name", { exact: true }).fill("Email Only");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/submit$/, { timeout: 15_000 });
    await page.goto(`${server.origin}/register`);
    await expect(page).toHaveURL(/\/account$/);
    // This server has no SMTP: the account page does not claim a link was mailed.
    await expect(page.getByText("Email not confirmed.")).toBeVisible();
    await expect(page.getByText("Use the link we mailed you")).toHaveCount(0);
    await expect(page.getByText("This site cannot send mail yet, so no link was sent")).toBeVisible();
    // A new link would go nowhere: no button offers one.
    await expect(page.getByRole("button", { name: /link/i })).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath("account-no-mail.png"), fullPage: true });
  });

  test("/forgot-password says no reset link can be sent, and offers no form that would claim one was", async ({
    page,
  }, testInfo) => {
    await page.goto(`${server.origin}/login/email`);
    await page.getByRole("link", { name: /Forgot/ }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(page.getByRole("heading", { level: 1, name: "Forgot your password?" })).toBeVisible();
    await expect(
      page.getByText(
        "This site cannot send mail yet, so it cannot send you a link to choose a new password: ask its operator.",
      ),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Send reset link" })).toHaveCount(0);
    expect((await page.locator("main").innerText()).toLowerCase()).not.toMatch(/we will send|we sent|mailed|spam/);
    await page.screenshot({ path: testInfo.outputPath("forgot-password-no-mail.png"), fullPage: true });
  });
});
