// The wallet's MCP server for the agent: wallet, search_servers, explore_server, purchase, review, revoke_review and check_job,
// each with input and output schemas and a readable text answer. Nothing here ever returns the key.
import { McpServer, type CallToolResult, type InputRequiredResult, type ServerContext } from "@modelcontextprotocol/server";
import { formatEther } from "viem";
import { z } from "zod";
import { BUYER_REVIEW_TEXT_MAX, CATALOGUE_PRICES, CATALOGUE_SORT_MEANINGS, CATALOGUE_SORTS, CATALOGUE_SOURCE_MEANINGS, CATALOGUE_SOURCES, formatUsd, unitsToUsd } from "@agora-mcp/protocol";
import { readCatalogue } from "./catalogue.js";
import type { ChainReader } from "./chain.js";
import { askerFor, ConfirmationStates, Confirmations } from "./confirm.js";
import { withConnection } from "./connections.js";
import { checkJob } from "./jobs.js";
import type { Ledger } from "./ledger.js";
import { purchase } from "./purchase.js";
import { review, revokeReview } from "./review.js";
import { searchRegistry } from "./registry.js";
import { resolveServer } from "./servers.js";
import type { Settings } from "./settings.js";
import type { Wallet } from "./wallet.js";
import { walletPageUrl } from "./wallet-page.js";

/**
 * `confirmations` and `confirmationStates` live as long as the process: a stdio host may be served by more than one
 * server instance (the SDK v2 builds one to answer server/discover), and a confirmation must outlive the call that issued it.
 */
export type ClientDeps = { settings: Settings; wallet: Wallet; ledger: Ledger; chain: ChainReader; confirmations?: Confirmations; confirmationStates?: ConfirmationStates };

const FAUCET = "https://faucet.circle.com";

function answer(wallet: Wallet, text: string, structured: Record<string, unknown>, isError = false): CallToolResult {
  // Last line of defence: no answer may carry the key, whatever a server or library put in it.
  const safe = JSON.parse(wallet.redact(JSON.stringify(structured))) as Record<string, unknown>;
  return { content: [{ type: "text", text: wallet.redact(text) }], structuredContent: safe, ...(isError ? { isError: true } : {}) };
}

/** A handler that throws answers one redacted line instead of whatever the error carried. */
function guarded<A, R = CallToolResult>(wallet: Wallet, tool: string, handler: (args: A, ctx: ServerContext) => Promise<R | CallToolResult>): (args: A, ctx: ServerContext) => Promise<R | CallToolResult> {
  return async (args, ctx) => {
    try {
      return await handler(args, ctx);
    } catch (error) {
      const line = error instanceof Error ? (error.message.split("\n")[0] ?? "").slice(0, 300) : "unknown error";
      return { isError: true, content: [{ type: "text", text: wallet.redact(`${tool} failed: ${line}`) }] };
    }
  };
}

const purchaseOutput = {
  status: z.enum(["delivered", "free", "job-pending", "confirmation-required", "declined", "refused", "drift", "failed", "disputed"]),
  message: z.string(),
  signed: z.boolean().describe("Whether a payment authorisation was signed"),
  server: z.string().optional(),
  serverUrl: z.string().optional(),
  item: z.string().optional(),
  priceUsd: z.string().optional(),
  transaction: z.string().optional(),
  orderId: z.string().optional(),
  result: z.unknown().optional(),
  jobId: z.string().optional(),
  checkAfterSeconds: z.number().optional(),
  confirmationId: z.string().optional(),
  missingParams: z.array(z.string()).optional(),
  payTo: z.string().optional().describe("The wallet the server asked to be paid"),
  answeredInMs: z.number().optional().describe("Milliseconds from sending the paid call to its answer"),
};

const CONFIRMATION_ID = z.string().max(100).optional().describe("Only when a previous call answered confirmation-required and the person said yes");

/** What review and revoke_review answer; `done` is the status of a review posted or withdrawn. */
function reviewOutput(done: "posted" | "revoked") {
  return {
    status: z.enum([done, "confirmation-required", "declined", "refused"]),
    message: z.string(),
    server: z.string().optional(),
    transaction: z.string().optional(),
    reviewId: z.string().optional(),
    confirmationId: z.string().optional(),
  };
}

export function buildClientServer(deps: ClientDeps): McpServer {
  const { settings, wallet, ledger, chain } = deps;
  const confirmations = deps.confirmations ?? new Confirmations();
  const states = deps.confirmationStates ?? new ConfirmationStates();
  const mcp = new McpServer(
    { name: "agora-wallet", title: "Agora wallet", version: "0.1.0" },
    {
      // A purchase confirmation's requestState (2026-07-28) is checked (seal, expiry) before the tool runs.
      requestState: { verify: states.verify },
      instructions:
        "A USDC wallet for paid MCP servers listed in the Agora registry. Find servers with search_servers, see what one sells with explore_server, " +
        "buy with purchase (it checks the price, the caps and asks the person when needed), collect asynchronous items with check_job, rate a server you paid with review (and withdraw that review with revoke_review). The wallet tool shows the balance and spending.",
    },
  );

  mcp.registerTool(
    "wallet",
    {
      title: "Wallet",
      description: "This wallet's address, network, USDC and ETH balances, today's spending against the daily cap, recent purchases, and how to fund it.",
      inputSchema: {},
      outputSchema: {
        address: z.string(),
        network: z.string(),
        usdc: z.string().describe("USDC balance in dollars"),
        eth: z.string().describe("ETH balance in ether (not needed to pay)"),
        spentToday: z.string(),
        dailyCap: z.string(),
        maxPerPurchase: z.string(),
        confirmationThreshold: z.string(),
        recentPurchases: z.array(z.object({ time: z.string(), server: z.string(), item: z.string(), amount: z.string(), status: z.string(), transaction: z.string().optional(), jobId: z.string().optional(), checkAfter: z.string().optional() })),
        funding: z.string(),
        walletPage: z.string().describe("The registry site's page for this wallet: balance, purchases, a QR code to fund it"),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(wallet, "wallet", async () => {
      const [usdc, eth] = await Promise.all([chain.usdcBalance(wallet.address), chain.ethBalance(wallet.address)]);
      const spent = ledger.spentToday();
      const recent = ledger.attempts().slice(-10).reverse();
      const funding = settings.network.testnet
        ? `Send test USDC on ${settings.network.label} to ${wallet.address}: the Circle faucet (${FAUCET}) gives it for free; tokens take a few minutes to arrive. No ETH is needed: the server's facilitator pays the gas.`
        : `Send USDC on ${settings.network.label} to ${wallet.address}. Keep only what you are happy for the agent to spend.`;
      const structured = {
        address: wallet.address,
        network: settings.network.label,
        usdc: unitsToUsd(usdc),
        eth: formatEther(eth),
        spentToday: unitsToUsd(spent),
        dailyCap: unitsToUsd(settings.dailyCapUnits),
        maxPerPurchase: unitsToUsd(settings.maxPerPurchaseUnits),
        confirmationThreshold: unitsToUsd(settings.thresholdUnits),
        recentPurchases: recent.map((a) => ({
          time: a.time,
          server: a.server,
          item: a.item,
          amount: unitsToUsd(a.units),
          status: a.status,
          ...(a.transaction ? { transaction: a.transaction } : {}),
          ...(a.jobId ? { jobId: a.jobId } : {}),
          ...(a.checkAfter ? { checkAfter: a.checkAfter } : {}),
        })),
        funding,
        walletPage: walletPageUrl(settings.registryUrl, wallet.address),
      };
      const lines = [
        `Wallet ${wallet.address} on ${settings.network.label}: ${formatUsd(usdc)} USDC, ${structured.eth} ETH.`,
        `Spent today ${formatUsd(spent)} of the ${formatUsd(settings.dailyCapUnits)} daily cap; at most ${formatUsd(settings.maxPerPurchaseUnits)} a purchase; purchases of ${formatUsd(settings.thresholdUnits)} or more need your confirmation.`,
        recent.length ? "Recent purchases:" : "No purchases yet.",
        ...recent.map((a) => `- ${a.time} ${a.server} / ${a.item}: ${formatUsd(a.units)} ${a.status}${a.transaction ? ` (${a.transaction})` : ""}${a.jobId ? ` job ${a.jobId}${a.checkAfter ? ` ready after ${a.checkAfter}` : ""}` : ""}`),
        funding,
        `Balance, purchases and a QR code of the address: ${structured.walletPage}`,
      ];
      return answer(wallet, lines.join("\n"), structured);
    }),
  );

  mcp.registerTool(
    "search_servers",
    {
      title: "Search the registry",
      description: `Search the Agora registry's approved paid MCP servers by text, category, price (free or paid) and source, best match first when there is text (relevance), or sorted ${CATALOGUE_SORTS.filter((s) => s !== "relevance").join(", ")}; pages with cursor.`,
      inputSchema: {
        query: z.string().max(200).optional().describe("Words to look for in names and descriptions"),
        category: z.string().max(100).optional(),
        price: z.enum(CATALOGUE_PRICES).optional(),
        source: z.enum(CATALOGUE_SOURCES).optional().describe(Object.entries(CATALOGUE_SOURCE_MEANINGS).map(([k, v]) => `${k}: ${v}`).join("; ")),
        sort: z.enum(CATALOGUE_SORTS).optional().describe(Object.entries(CATALOGUE_SORT_MEANINGS).map(([k, v]) => `${k}: ${v}`).join("; ")),
        limit: z.number().int().min(1).max(50).optional(),
        cursor: z.string().max(200).optional().describe("nextCursor from the previous page"),
      },
      outputSchema: {
        servers: z.array(z.object({ id: z.string(), slug: z.string(), name: z.string(), description: z.string(), categories: z.array(z.string()), price: z.number().nullable(), verified: z.boolean(), serverUrl: z.string() })),
        total: z.number(),
        totalCapped: z.boolean(),
        nextCursor: z.string().nullable(),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(wallet, "search_servers", async (args) => {
      const found = await searchRegistry(settings.registryUrl, { ...args, limit: args.limit ?? 10 });
      const servers = found.servers.map(({ id, slug, name, description, categories, price, verified, serverUrl }) => ({ id, slug, name, description, categories, price, verified, serverUrl }));
      const text = [
        `${found.total}${found.totalCapped ? "+" : ""} server(s) match; showing ${servers.length}.`,
        ...servers.map((s) => `- ${s.name} (id ${s.slug}${s.verified ? ", verified" : ""}): ${s.price ? `from $${s.price} a call` : "free"}. ${s.description.slice(0, 160)}`),
        found.nextCursor ? `More: pass cursor "${found.nextCursor}".` : "",
        "Next: explore_server with a server's id to see its items and prices.",
      ].filter(Boolean);
      return answer(wallet, text.join("\n"), { servers, total: found.total, totalCapped: found.totalCapped, nextCursor: found.nextCursor });
    }),
  );

  mcp.registerTool(
    "explore_server",
    {
      title: "Explore a server",
      description:
        "Connects to a listed server (its registry id or slug; a URL only with ENABLE_UNSAFE_DIRECT_ACCESS) and reads what it sells now: each item's price, the parameters it needs, and whether this wallet can pay it.",
      inputSchema: { server: z.string().min(1).max(500).describe("Registry id or slug, or a URL with direct access on") },
      outputSchema: {
        server: z.string(),
        serverUrl: z.string(),
        payTo: z.string().nullable(),
        items: z.array(z.object({ id: z.string(), name: z.string(), description: z.string().optional(), priceUsd: z.string(), params: z.record(z.string(), z.string()), payable: z.boolean(), why: z.string().optional() })),
        x402Tools: z.array(z.object({ name: z.string(), description: z.string().optional(), priceUsd: z.string().optional() })),
        notes: z.array(z.string()),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(wallet, "explore_server", async ({ server }) => {
      const resolved = await resolveServer(server, settings);
      if (!resolved.ok) return answer(wallet, resolved.reason, { server, serverUrl: "", payTo: null, items: [], x402Tools: [], notes: [resolved.reason] }, true);
      const { url, label } = resolved.server;
      const catalogue = await withConnection(url, (c) => readCatalogue(c, settings.network));
      const items = catalogue.items.map((i) => {
        const units = BigInt(i.units ?? "0");
        let why: string | undefined;
        if (units > 0n && !catalogue.payTo) why = `the server takes no ${settings.network.paymentMethod}`;
        else if (i.paymentMethod && units > 0n && i.paymentMethod !== settings.network.paymentMethod) why = `paid in ${i.paymentMethod}`;
        else if (units > settings.maxPerPurchaseUnits) why = `above the per-purchase maximum of ${formatUsd(settings.maxPerPurchaseUnits)}`;
        return { id: i.id ?? i.name, name: i.name, ...(i.description ? { description: i.description } : {}), priceUsd: unitsToUsd(units), params: i.params ?? {}, payable: !why, ...(why ? { why } : {}) };
      });
      const x402Tools = catalogue.x402Tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), ...(t.units ? { priceUsd: unitsToUsd(t.units) } : {}) }));
      const text = [
        `${label} (${url}) sells ${items.length} item(s)${catalogue.payTo ? `, paid to ${catalogue.payTo}` : ""}:`,
        ...items.map((i) => `- ${i.id}: ${i.name}, $${i.priceUsd}${Object.keys(i.params).length ? `; params ${Object.entries(i.params).map(([k, v]) => `${k} (${v})`).join(", ")}` : ""}${i.payable ? "" : ` — cannot pay: ${i.why}`}`),
        ...x402Tools.map((t) => `- x402 tool ${t.name}${t.priceUsd ? `: $${t.priceUsd}` : ""}`),
        ...catalogue.notes.map((n) => `Note: ${n}`),
        "Buy with purchase {server, item, params}.",
      ];
      return answer(wallet, text.join("\n"), { server: label, serverUrl: url, payTo: catalogue.payTo ?? null, items, x402Tools, notes: catalogue.notes });
    }),
  );

  mcp.registerTool(
    "purchase",
    {
      title: "Buy an item",
      description:
        "Buys one item from a listed server (a URL only with ENABLE_UNSAFE_DIRECT_ACCESS). Re-reads the price from the server, checks the parameters, " +
        "refuses above the balance, the per-purchase maximum and the daily cap before signing, asks the person at or above the confirmation threshold, " +
        "and reports success only after checking on chain that exactly the price went to the payee.",
      inputSchema: {
        server: z.string().min(1).max(500).describe("Registry id or slug, or a URL with direct access on"),
        item: z.string().min(1).max(200).describe("The item's id from explore_server"),
        params: z.record(z.string(), z.unknown()).optional().describe("The item's parameters, named as explore_server lists them"),
        confirmationId: CONFIRMATION_ID,
        maxPriceUsd: z.string().max(20).optional().describe("Refuse if the server now asks more than this (dollars, e.g. 0.25)"),
      },
      outputSchema: purchaseOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded<Parameters<typeof purchase>[0], InputRequiredResult>(wallet, "purchase", async (args, ctx) => {
      const outcome = await purchase(args, { settings, wallet, ledger, chain, confirmations, asker: askerFor(mcp.server, ctx, states) });
      if (outcome.inputRequired) return outcome.inputRequired;
      const failed = outcome.status === "refused" || outcome.status === "failed" || outcome.status === "disputed";
      const shown = outcome.result === undefined ? "" : `\nResult: ${typeof outcome.result === "string" ? outcome.result : JSON.stringify(outcome.result)}`;
      return answer(wallet, `${outcome.message}${shown}`, outcome as unknown as Record<string, unknown>, failed);
    }),
  );

  const reviewDeps = { settings, wallet, ledger, confirmations, mcp: mcp.server };
  const reviewAnswer = (outcome: { status: string; message: string }) => answer(wallet, outcome.message, outcome as unknown as Record<string, unknown>, outcome.status === "refused");

  mcp.registerTool(
    "review",
    {
      title: "Review a server you bought from",
      description:
        "Rates a listed server 1–5 with a short plain-text review, signed by this wallet for one of its paid purchases from that server (the latest, or the transaction named). " +
        "The registry shows it as a verified purchase only after checking the payment on chain. The person confirms the text first when confirmations are on.",
      inputSchema: {
        server: z.string().min(1).max(200).describe("Registry id or slug of the server you bought from"),
        rating: z.number().int().min(1).max(5),
        text: z.string().max(BUYER_REVIEW_TEXT_MAX).describe("Plain text; shown exactly as written"),
        transaction: z.string().max(100).optional().describe("The purchase's transaction hash, when not the latest from that server"),
        confirmationId: CONFIRMATION_ID,
      },
      outputSchema: reviewOutput("posted"),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    guarded(wallet, "review", async (args) => reviewAnswer(await review(args, reviewDeps))),
  );

  mcp.registerTool(
    "revoke_review",
    {
      title: "Withdraw your review of a server",
      description:
        "Withdraws the review this wallet wrote for one of its paid purchases from a server (the latest, or the transaction named), signed by this wallet. " +
        "The registry stops showing and counting it; that purchase cannot be reviewed again. The person confirms first when confirmations are on.",
      inputSchema: {
        server: z.string().min(1).max(200).describe("Registry id or slug of the server you reviewed"),
        transaction: z.string().max(100).optional().describe("The reviewed purchase's transaction hash, when not the latest from that server"),
        confirmationId: CONFIRMATION_ID,
      },
      outputSchema: reviewOutput("revoked"),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
    guarded(wallet, "revoke_review", async (args) => reviewAnswer(await revokeReview(args, reviewDeps))),
  );

  mcp.registerTool(
    "check_job",
    {
      title: "Collect an asynchronous item",
      description: "Asks the server for the result of an asynchronous purchase (a job id from purchase or the wallet tool), proving with this wallet that it paid.",
      inputSchema: { jobId: z.string().min(1).max(200) },
      outputSchema: { status: z.enum(["pending", "done", "failed", "unknown"]), message: z.string(), jobId: z.string(), result: z.unknown().optional(), checkAfterSeconds: z.number().optional() },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(wallet, "check_job", async ({ jobId }) => {
      const status = await checkJob(jobId, { ledger, wallet });
      const shown = status.result === undefined ? "" : `\nResult: ${JSON.stringify(status.result)}`;
      return answer(wallet, `${status.message}${shown}`, status as unknown as Record<string, unknown>, status.status === "failed" || status.status === "unknown");
    }),
  );

  return mcp;
}
