import { expect, test } from "@playwright/test";
import { startX402TransportServer } from "../../examples/x402-transport-server";
import { signInWithGitHub, toast, uniqueLogin } from "./support/auth";
import { adminPage } from "./support/listing-flow";
import { facilitatorPort } from "./support/ports";

// A paid server not built on Agora's kit (x402's own MCP transport: its tool list says nothing about payment) is
// submitted through the form as a provider does: "Which tools charge?" reads the tool list, the provider ticks the
// paid tool and agrees to the unpaid calls; the check prices it from its unpaid calls, the account page says what it found,
// and once approved the detail page names the library style it is paid in.
test("a server on x402's MCP transport: its owner names the paid tool, the check prices it, the pages say how it is paid", async ({
  page,
  browser,
  isMobile,
}, testInfo) => {
  test.skip(isMobile, "one run is enough (the phone layout is screenshotted below); it shares the admin account");
  test.setTimeout(150_000);
  const server = await startX402TransportServer({
    facilitatorUrl: `http://127.0.0.1:${facilitatorPort}`,
    payTo: "0x3333333333333333333333333333333333333333",
    units: 10_000n,
  });
  try {
    const run = uniqueLogin(testInfo, "x402t");
    const name = `Forecast on x402 ${run}`;
    await signInWithGitHub(page, uniqueLogin(testInfo, "provider"));
    await page.goto("/submit");
    await page.getByLabel("Name").fill(name);
    await page
      .getByLabel("Description")
      .fill("Tomorrow's forecast for a city, paid per call over x402's MCP transport.");
    await page.getByLabel("MCP Server URL").fill(server.url);
    await page.getByLabel("Categories", { exact: true }).fill("Data");
    await page.keyboard.press("Enter");

    const section = page.getByRole("group", { name: /Which tools charge\?/ });
    await section.getByRole("button", { name: "Read the server's tools" }).click();
    const tools = section.getByRole("list", { name: "The server's tools" });
    await expect(tools.getByRole("checkbox")).toHaveCount(2, { timeout: 15_000 });
    await tools.getByRole("checkbox", { name: /forecast/ }).check();
    // Naming a tool without agreeing to its unpaid calls is refused with the form's own words.
    await page.getByRole("button", { name: "Submit for review" }).click();
    await expect(section.getByText(/agree that Agora reads each one's price by calling it unpaid/)).toBeVisible();
    await section
      .getByRole("checkbox", { name: "Read each ticked tool's price by calling it unpaid, up to twice per check" })
      .check();
    await page.screenshot({ path: testInfo.outputPath("which-tools-charge.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await section.screenshot({ path: testInfo.outputPath("which-tools-charge-390.png") });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole("button", { name: "Submit for review" }).click();
    await expect(toast(page, "Success", "Your MonetizedMCP server has been submitted successfully")).toBeVisible();

    // The check ran in the background: the account page says what it found for the named tool.
    const entry = page.getByRole("listitem").filter({ hasText: name });
    await expect(async () => {
      await page.goto("/account");
      await expect(entry.getByTestId("tool-payments")).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 45_000 });
    const payments = entry.getByTestId("tool-payments");
    await expect(payments).toContainText("forecast");
    await expect(payments).toContainText("named by the owner");
    await expect(payments).toContainText("Payment: x402 MCP transport");
    await expect(payments).toContainText("Priced at $0.01 on Base Sepolia");
    await entry.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath("account-paid-tools.png"), fullPage: true });

    // Approved, it is public, priced and says how it is paid.
    const admin = await adminPage(browser);
    await admin.goto("/admin/review");
    const queued = admin.getByTestId("queue-entry").filter({ hasText: name });
    await expect(queued.getByText("Priced at $0.01 on Base Sepolia")).toBeVisible();
    await queued.getByRole("button", { name: "Approve" }).click();
    await expect(toast(admin, "Approved")).toBeVisible({ timeout: 60_000 });
    await page.goto(`/marketplace?q=${encodeURIComponent(run)}`);
    const card = page.getByTestId("listing").filter({ hasText: name });
    await expect(card.getByTestId("price")).toHaveText(/\$0\.01/);
    await card.getByRole("link", { name }).click();
    await expect(page.getByText("Payment: x402 MCP transport")).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath("detail-x402-transport.png"), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath("detail-x402-transport-390.png"), fullPage: true });
  } finally {
    await server.close();
  }
});
