// The provider's path with nothing but the site's pages, timed: in an empty folder, copy Building A Server's blocks
// off the page (install, .env, index.js) and the Local Testing Guide's commands (build, start on the sandbox's
// facilitator), register and submit through /submit in Chromium, approve as the sandbox's reviewer, and buy from the
// new server through the agent client started from the Getting Started block. Counts the blocks copied.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { chromium, expect, type Page } from "@playwright/test";
import type { AgentConfig } from "./agent-path";

const CHROMIUM = ["/usr/bin/chromium", "/usr/lib/chromium/chromium"].find((p) => fs.existsSync(p));
const run = promisify(execFile);

export type ProviderPath = {
  ms: number;
  copiedBlocks: number;
  serverLog: string;
  purchase: Record<string, unknown>;
  folder: string;
  server: ChildProcess;
};
type Walk = {
  origin: string;
  facilitatorUrl: string;
  port: number;
  reviewer: { email: string; password: string };
  agentConfig: AgentConfig;
  wallet: `0x${string}`;
};

/** Every code block on a page, in order, as a person copies it: its language and text. */
async function blocks(page: Page, url: string): Promise<{ lang: string; text: string }[]> {
  await page.goto(url, { timeout: 240_000 });
  const figures = page.getByTestId("code-block");
  await expect(figures.first()).toBeVisible({ timeout: 60_000 });
  return figures.evaluateAll((all) =>
    all.map((f) => ({
      lang: (f.querySelector("figcaption")?.textContent ?? "").trim(),
      text: (f.querySelector("pre") as HTMLElement).innerText,
    })),
  );
}

function npmEnv(home: string): NodeJS.ProcessEnv {
  // A stranger's npm: its own cache, the public registry out of reach (everything comes from the site).
  return {
    ...process.env,
    HOME: home,
    npm_config_cache: path.join(home, ".npm"),
    npm_config_registry: "http://127.0.0.1:9",
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_fetch_retries: "0",
  };
}

function startServer(
  folder: string,
  command: string,
  env: NodeJS.ProcessEnv,
): Promise<{ server: ChildProcess; url: string; log: () => string }> {
  const server = spawn("sh", ["-c", command], { cwd: folder, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  return new Promise((resolve, reject) => {
    const read = (d: Buffer) => {
      out += d.toString();
      const match = /Selling word counts at (\S+)/.exec(out);
      if (match) resolve({ server, url: match[1]!, log: () => out });
    };
    server.stdout!.on("data", read);
    server.stderr!.on("data", read);
    server.once("exit", (code) => reject(new Error(`the guide's server exited with ${code}: ${out}`)));
  });
}

export async function walkProviderPath({
  origin,
  facilitatorUrl,
  port,
  reviewer,
  agentConfig,
  wallet,
}: Walk): Promise<ProviderPath> {
  const started = Date.now();
  let copied = 0;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "agora-provider-path-"));
  const env = npmEnv(folder);
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const page = await (await browser.newContext()).newPage();
    const guide = await blocks(page, `${origin}/guides/setup-and-usage`);
    const install = guide.find((b) => b.lang.startsWith("bash") && b.text.includes("npm init"))!;
    const dotenv = guide.find((b) => b.lang.startsWith("dotenv") && b.text.includes("SERVER_WALLET_ADDRESS="))!;
    const code = guide.find((b) => b.lang.startsWith("js") && b.text.includes("createMonetizedServer"))!;
    const testing = await blocks(page, `${origin}/guides/local-testing-guide`);
    const buildAndStart = testing.find((b) => b.lang.startsWith("bash") && b.text.includes("npm run build"))!;
    const onSandbox = testing.find((b) => b.lang.startsWith("bash") && b.text.includes("FACILITATOR_URL="))!;
    copied += 5;

    await run("sh", ["-e", "-c", install.text], { cwd: folder, env, timeout: 120_000 });
    // The .env as shown, with the wallet address filled in as the guide asks; index.js as shown.
    fs.writeFileSync(path.join(folder, ".env"), dotenv.text.replace("0xYourReceivingWalletAddress", wallet));
    fs.writeFileSync(path.join(folder, "index.js"), code.text);
    const [build] = buildAndStart.text.split("\n");
    await run("sh", ["-e", "-c", build!], { cwd: folder, env, timeout: 60_000 });
    // The sandbox's facilitator is where `npm run sandbox` printed it (this run uses other ports than the defaults).
    const start = onSandbox.text.replace("http://127.0.0.1:4020", facilitatorUrl);
    const { server, url, log } = await startServer(folder, start, { ...env, PORT: String(port) });

    // Register, then submit through /submit.
    await page.goto(`${origin}/register`, { timeout: 240_000 });
    const email = `provider-${Date.now()}@sandbox.example`;
    await page.getByLabel("Name", { exact: true }).fill("Guide Reader");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("a long sandbox passphrase 38");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/submit$/, { timeout: 240_000 });
    const name = `Word Count ${Date.now()}`;
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Description").fill("Counts the words in a text, from the Building A Server guide.");
    await page.getByLabel("MCP Server URL").fill(url);
    await page.getByLabel("Categories", { exact: true }).fill("Data");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Submit for review" }).click();
    await expect(page.getByTestId("submitted-notice")).toContainText(name, { timeout: 60_000 });

    // Approve as the reviewer the sandbox printed.
    const admin = await (await browser.newContext()).newPage();
    await admin.goto(`${origin}/login/email`, { timeout: 240_000 });
    await admin.getByLabel("Email", { exact: true }).fill(reviewer.email);
    await admin.getByLabel("Password", { exact: true }).fill(reviewer.password);
    await admin.getByRole("button", { name: "Sign in" }).click();
    await expect(admin).toHaveURL(/\/submit$/, { timeout: 240_000 });
    const entry = admin.getByTestId("queue-entry").filter({ hasText: name });
    await expect(async () => {
      await admin.goto(`${origin}/admin/review`, { timeout: 240_000 });
      await expect(entry.getByText("MonetizedMCP server found, verified once approved")).toBeVisible({
        timeout: 2_000,
      });
    }).toPass({ timeout: 240_000 });
    await entry.getByRole("button", { name: "Approve" }).click();
    // Approving checks the server again (a probe over loopback) in a dev server that may still be compiling on busy cores.
    await expect(admin.locator("[data-sonner-toast]").filter({ hasText: "Approved" })).toBeVisible({
      timeout: 150_000,
    });

    const purchase = await buyThroughClient(agentConfig, folder);
    return { ms: Date.now() - started, copiedBlocks: copied + 1, serverLog: log(), purchase, folder, server };
  } finally {
    await browser.close();
  }
}

/** The Getting Started block's client finds the new server through search and buys a word count. */
async function buyThroughClient(config: AgentConfig, home: string): Promise<Record<string, unknown>> {
  const { command, args, env } = config.mcpServers.agora;
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: home,
    env: { ...getDefaultEnvironment(), ...env, ...(npmEnv(path.join(home, "agent")) as Record<string, string>) },
    stderr: "pipe",
  });
  const client = new Client(
    { name: "provider-path", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { approve: true } }));
  try {
    await client.connect(transport);
    const search = (await client.callTool({
      name: "search_servers",
      arguments: { query: "word count" },
    })) as CallToolResult;
    const slugs = (search.structuredContent as { servers: { slug: string; name: string }[] }).servers;
    const mine = slugs.find((s) => s.name.startsWith("Word Count"));
    if (!mine) throw new Error(`search did not find the new server: ${JSON.stringify(slugs)}`);
    const bought = (await client.callTool(
      { name: "purchase", arguments: { server: mine.slug, item: "word-count", params: { text: "Hello, agents" } } },
      undefined,
      { timeout: 120_000 },
    )) as CallToolResult;
    return (bought.structuredContent ?? { content: bought.content }) as Record<string, unknown>;
  } finally {
    await client.close();
  }
}
