import { expect, test, type Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { defaultEnvOf, mcpbManifestSchema } from "../support/mcpb-manifest";

// "Add to Claude Desktop", "Add to Cursor" and "Add to VS Code" beside the config block: each link's payload, decoded
// as the host decodes it, names the same command, arguments and settings as the block a reader sees next to it.
type Server = { command: string; args: string[]; env: Record<string, string> };

async function blockBeside(page: Page): Promise<{ name: string; server: Server }> {
  const buttons = page.getByTestId("install-buttons");
  await expect(buttons).toBeVisible();
  // The config block right before the buttons, as the reader sees it.
  const text = await buttons.evaluate((el) => {
    let node = el.previousElementSibling;
    while (node && node.getAttribute("data-testid") !== "code-block") node = node.previousElementSibling;
    return node?.querySelector("pre")?.textContent ?? "";
  });
  const config = JSON.parse(text) as { mcpServers: Record<string, Server> };
  const [[name, server]] = Object.entries(config.mcpServers) as [[string, Server]];
  return { name, server };
}

async function checkLinks(page: Page) {
  const { name, server } = await blockBeside(page);
  const buttons = page.getByTestId("install-buttons");

  const cursor = new URL((await buttons.getByRole("link", { name: "Add to Cursor" }).getAttribute("href"))!);
  expect(`${cursor.protocol}//${cursor.host}${cursor.pathname}`).toBe("cursor://anysphere.cursor-deeplink/mcp/install");
  expect(cursor.searchParams.get("name")).toBe(name);
  expect(JSON.parse(Buffer.from(cursor.searchParams.get("config")!, "base64").toString("utf8"))).toEqual(server);

  const vscode = (await buttons.getByRole("link", { name: "Add to VS Code" }).getAttribute("href"))!;
  expect(vscode.startsWith("vscode:mcp/install?")).toBe(true);
  expect(JSON.parse(decodeURIComponent(vscode.slice("vscode:mcp/install?".length)))).toEqual({
    name,
    type: "stdio",
    ...server,
  });

  // Claude Desktop installs the bundle: with every option at its default the client gets the block's settings.
  const claude = buttons.getByRole("link", { name: "Add to Claude Desktop" });
  await expect(claude).toHaveAttribute("download", "");
  const response = await page.request.get((await claude.getAttribute("href"))!);
  expect(response.status()).toBe(200);
  const files = unzipSync(new Uint8Array(await response.body()));
  const manifest = mcpbManifestSchema.parse(JSON.parse(strFromU8(files["manifest.json"]!)));
  const env = defaultEnvOf(manifest, "/home/someone");
  for (const [variable, value] of Object.entries(server.env)) expect(env[variable], variable).toBe(value);
  expect(manifest.server.mcp_config.command).toBe("node");
  expect(files[manifest.server.entry_point]).toBeDefined();
}

test("Getting Started: the install links carry the block's command and settings", async ({ page }, testInfo) => {
  await page.goto("/getting-started");
  await checkLinks(page);
  await page.getByTestId("install-buttons").scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath(`getting-started-install-${page.viewportSize()!.width}.png`) });
});

test("a listing's How to connect: the install links carry the block's command and settings", async ({
  page,
}, testInfo) => {
  await page.goto("/marketplace/weather-now");
  await checkLinks(page);
  await page.getByTestId("install-buttons").scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath(`listing-install-${page.viewportSize()!.width}.png`) });
});
