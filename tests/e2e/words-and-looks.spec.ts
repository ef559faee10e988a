// Words and looks, at 1280 and 390 px: the badges How It Works explains are the four the pages show;
// a Base Sepolia listing says so; one check is "1 check"; a listing without sales has no empty chart; the marketplace
// search placeholder is not cut; badges no longer squeeze card titles.
import { expect, test } from "@playwright/test";

test("How It Works explains the four badges the pages show", async ({ page }, testInfo) => {
  await page.goto("/how-it-works");
  await expect(page.getByText("can carry four badges")).toBeVisible();
  const badges = page.locator("dl dt");
  await expect(badges).toHaveText(["Verified", "New", "Delivery tested", "Reachable"]);
  await page.getByRole("heading", { name: "What the badges mean" }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("badges.png") });
});

test("a Base Sepolia listing says Base Sepolia, and counts its checks in words", async ({ page }, testInfo) => {
  await page.goto("/marketplace/weather-now");
  await expect(page.getByText("Lowest priced item, USDC on Base Sepolia")).toBeVisible();
  await expect(page.getByText("Lowest priced item, USDC on Base", { exact: true })).toHaveCount(0);
  await expect(page.getByText(/\b1 checks\b/)).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("detail.png") });
});

test("a listing with no sales shows no empty chart frame", async ({ page, request }) => {
  const all = (await (await request.get("/api/mcp-agents?limit=20")).json()) as { id: string }[];
  let unsold: string | undefined;
  for (const { id } of all) {
    const one = (await (await request.get(`/api/mcp-agents/${id}`)).json()) as {
      sales?: { allTime?: { sales: number } };
    };
    if (one.sales?.allTime?.sales === 0) {
      unsold = id;
      break;
    }
  }
  expect(unsold, "a listing without sales").toBeDefined();
  await page.goto(`/marketplace/${unsold!}`);
  await expect(page.getByTestId("last-sale")).toHaveText("No sales recorded yet.");
  await expect(page.getByTestId("sales-chart")).toHaveCount(0);
});

test("the marketplace search placeholder fits, and card titles keep the card's width", async ({ page }, testInfo) => {
  await page.goto("/marketplace");
  const search = page.locator("#marketplace-search");
  await expect(search).toBeVisible();
  // The placeholder's rendered width against the room the input leaves for text.
  const { text, room } = await search.evaluate((input: HTMLInputElement) => {
    const style = getComputedStyle(input);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    return {
      text: context.measureText(input.placeholder).width,
      room: input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight),
    };
  });
  expect(text).toBeLessThanOrEqual(room);
  const card = page.getByTestId("listing").first();
  const [cardBox, titleBox] = await Promise.all([card.boundingBox(), card.locator("h2").boundingBox()]);
  // The title spans the card's content width (badges sit on their own row above it).
  expect(titleBox!.width).toBeGreaterThan(cardBox!.width * 0.8);
  await page.screenshot({ path: testInfo.outputPath("marketplace.png") });
});
