import { expect, test } from "@playwright/test";
import { siteOrigin } from "./support/deployment";

const pages: [string, string | RegExp][] = [
  ["/how-it-works", "How It Works"],
  ["/getting-started", "Getting Started"],
  ["/guides/setup-and-usage", "Setup and Usage Guide"],
  ["/guides/agents", "Registry for Agents"],
  ["/guides/local-testing-guide", "Local Testing Guide"],
  ["/guides/aws-step-by-step", "Deploying MCP Server to AWS App Runner using ECR"],
  ["/terms-of-service", "Terms of Service"],
  ["/privacy-policy", "Privacy Policy"],
];

for (const [path, heading] of pages) {
  test(`${path} renders its heading and metadata`, async ({ page }) => {
    const res = await page.goto(path);
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /.{40,}/);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", /.+/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new RegExp(`${path}$`));
  });
}

test("the agents guide shows the registry's one config block, highlighted and copyable", async ({ page }) => {
  await page.goto("/guides/agents");
  const block = page.getByTestId("code-block").filter({ hasText: '"agora-registry"' });
  await expect(block).toHaveCount(1);
  await expect(block).toContainText(`${siteOrigin}/api/mcp`);
  await expect(block.getByRole("button", { name: /copy/i })).toBeVisible();
  // Highlighted by shiki at build time: tokens carry inline colours.
  await expect(block.locator("pre span[style]").first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 3, name: "search_servers" })).toBeVisible();
});
