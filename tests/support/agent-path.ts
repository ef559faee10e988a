// The agent builder's path as the Getting Started page gives it, timed: open the page in Chromium, copy the one config
// block it shows, start the client exactly as the block says (npx from the site's tarball, with an empty npm cache,
// a fresh home and the npm registry out of reach), then search the registry and buy through the client, confirming
// the payment as the person would. Returns how long it took and how many blocks were copied.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { chromium } from "@playwright/test";

export type AgentConfig = { mcpServers: { agora: { command: string; args: string[]; env: Record<string, string> } } };
export type AgentPath = {
  ms: number;
  copiedBlocks: number;
  config: AgentConfig;
  purchase: Record<string, unknown>;
  found: string[];
  log: string;
};

const CHROMIUM = ["/usr/bin/chromium", "/usr/lib/chromium/chromium"].find((p) => fs.existsSync(p));

/** The JSON config block Getting Started shows, as a person copies it off the page. */
export async function copyGettingStartedBlock(origin: string): Promise<string> {
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/getting-started`, { timeout: 240_000 });
    const block = page
      .getByTestId("code-block")
      .filter({ has: page.locator("figcaption", { hasText: /^json/ }) })
      .first();
    return await block.locator("pre").innerText({ timeout: 60_000 });
  } finally {
    await browser.close();
  }
}

type Walk = {
  query: string;
  item: string;
  params: Record<string, string>;
  /** The result the person picks (the first by default). */ choose?: (slugs: string[]) => string | undefined;
};

export async function walkAgentPath(
  origin: string,
  { query, item, params, choose = (slugs) => slugs[0] }: Walk,
): Promise<AgentPath> {
  const started = Date.now();
  const config = JSON.parse(await copyGettingStartedBlock(origin)) as AgentConfig;
  const { command, args, env } = config.mcpServers.agora;
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "agora-agent-path-"));
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: home,
    env: {
      ...getDefaultEnvironment(),
      ...env,
      HOME: home,
      npm_config_cache: path.join(home, ".npm"),
      npm_config_registry: "http://127.0.0.1:9",
      npm_config_update_notifier: "false",
      npm_config_fetch_retries: "0",
    },
    stderr: "pipe",
  });
  let log = "";
  transport.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  const client = new Client(
    { name: "getting-started-reader", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } } },
  );
  // The person says yes to the payment the client asks about (ELICITATION_THRESHOLD 0.01).
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { approve: true } }));
  try {
    await client.connect(transport);
    const search = (await client.callTool({ name: "search_servers", arguments: { query } })) as CallToolResult;
    if (search.isError) throw new Error(`search_servers failed: ${JSON.stringify(search.content)} ${log}`);
    const found = (search.structuredContent as { servers: { slug: string }[] }).servers.map((s) => s.slug);
    const server = choose(found);
    if (!server) throw new Error(`search_servers found nothing to choose: ${found.join(", ")}`);
    const bought = (await client.callTool({ name: "purchase", arguments: { server, item, params } }, undefined, {
      timeout: 120_000,
    })) as CallToolResult;
    return {
      ms: Date.now() - started,
      copiedBlocks: 1,
      config,
      purchase: (bought.structuredContent ?? { content: bought.content }) as Record<string, unknown>,
      found,
      log,
    };
  } finally {
    await client.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}
