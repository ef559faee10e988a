import { expect, test } from "@playwright/test";

test.describe("home and newsletter", () => {
  test("home shows the hero, the explainer, both cards and the tagline", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle(/Where AI Agents Do Business/);
    await expect(page.getByRole("heading", { level: 1, name: "Where AI Agents Do Business" })).toBeVisible();
    await expect(page.getByRole("heading", { name: /^What is Agora\?$/ })).toBeVisible();
    await expect(page.getByText("Discover and Transact with MonetizedMCP servers", { exact: true })).toBeVisible();
    // Once, in the hero: the newsletter card does not repeat it as a stray line.
    await expect(page.getByText("Discover and Transact with MonetizedMCP servers", { exact: true })).toHaveCount(1);
    await expect(
      page
        .locator("section")
        .filter({ hasText: "Stay in the loop" })
        .getByText(/Discover and Transact/),
    ).toHaveCount(0);
    await page.getByRole("link", { name: /How It Works.*Read more/s }).click();
    await expect(page).toHaveURL("/how-it-works");
    await page.goBack();
    await page.getByRole("link", { name: /Getting Started.*Read more/s }).click();
    await expect(page).toHaveURL("/getting-started");
  });

  test("invalid email shows the validation message and sends nothing", async ({ page }) => {
    let posted = false;
    page.on("request", (r) => r.url().includes("/api/mailchimp/member") && (posted = true));
    await page.goto("/");
    await page.getByLabel("Email address").fill("not-an-email");
    await page.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.getByText("Invalid email address")).toBeVisible();
    expect(posted).toBe(false);
  });

  test("subscribing succeeds, clears the field and resets after five seconds", async ({ page }) => {
    await page.clock.install();
    await page.goto("/");
    const email = page.getByLabel("Email address");
    await email.fill(`reader-${Date.now()}@example.com`);
    await page.getByRole("button", { name: "Subscribe" }).click();
    const message = page.getByText("Successfully subscribed!");
    await expect(message).toBeVisible();
    await expect(message).toHaveCSS("color", "rgb(4, 120, 87)");
    await expect(email).toHaveValue("");
    await page.clock.runFor(4_000);
    await expect(message).toBeVisible();
    await page.clock.runFor(1_100);
    await expect(message).toBeHidden();
  });

  test("a refused subscription shows the error in red, then resets", async ({ page }) => {
    await page.clock.install();
    await page.goto("/");
    await page.getByLabel("Email address").fill("rejected@example.com");
    await page.getByRole("button", { name: "Subscribe" }).click();
    const message = page.getByText("Subscription failed. Please try again.");
    await expect(message).toBeVisible();
    await expect(message).toHaveCSS("color", "rgb(220, 38, 38)");
    await page.clock.runFor(5_100);
    await expect(message).toBeHidden();
  });
});
