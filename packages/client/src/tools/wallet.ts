// wallet: the address, balances, the spending rules and what is left of each budget, recent purchases, and how to fund it.
import { formatEther } from "viem";
import { z } from "zod";
import { formatUsd, unitsToUsd } from "@agora-mcp/protocol";
import type { LedgerEntry } from "../ledger.js";
import { describePolicy } from "../policy/describe.js";
import { policyOf } from "../purchase/check.js";
import { chainName, isLocalChain } from "../local-chain.js";
import { walletPageUrl } from "../wallet-page.js";
import { answer, guarded, type ToolDeps } from "./answer.js";

const FAUCET = "https://faucet.circle.com";

const outputSchema = {
  address: z.string(),
  network: z.string(),
  localChain: z
    .boolean()
    .describe(
      "Whether the chain is a local one (such as the sandbox's), which public explorers and faucets do not see",
    ),
  usdc: z.string().nullable().describe("USDC balance in dollars; null when the chain could not be read"),
  eth: z
    .string()
    .nullable()
    .describe("ETH balance in ether (not needed to pay); null when the chain could not be read"),
  balanceError: z.string().optional().describe("Why the balance could not be read"),
  spentToday: z.string(),
  dailyCap: z.string(),
  maxPerPurchase: z.string(),
  confirmationThreshold: z.string(),
  policy: z.object({
    file: z.string().nullable().describe("The policy file in force, if any"),
    rules: z.array(z.string()),
    budgets: z.array(
      z.object({ rule: z.string(), budget: z.string(), limit: z.string(), spent: z.string(), left: z.string() }),
    ),
  }),
  recentPurchases: z.array(
    z.object({
      time: z.string(),
      server: z.string(),
      item: z.string(),
      amount: z.string(),
      status: z.string(),
      transaction: z.string().optional(),
      jobId: z.string().optional(),
      checkAfter: z.string().optional(),
    }),
  ),
  funding: z.string(),
  walletPage: z.string().describe("The registry site's page for this wallet: balance, purchases, a QR code to fund it"),
};

const recentLine = (a: LedgerEntry) =>
  `- ${a.time} ${a.server} / ${a.item}: ${formatUsd(a.units)} ${a.status}${a.transaction ? ` (${a.transaction})` : ""}${a.jobId ? ` job ${a.jobId}${a.checkAfter ? ` ready after ${a.checkAfter}` : ""}` : ""}`;

export function registerWallet({ mcp, settings, wallet, ledger, chain }: ToolDeps): void {
  const description =
    "This wallet's address, network, USDC and ETH balances, the spending rules and what is left of each budget, recent purchases, and how to fund it.";
  mcp.registerTool(
    "wallet",
    {
      title: "Wallet",
      description,
      inputSchema: {},
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    guarded(wallet, "wallet", async () => {
      // The address, the rules and the budgets come from this machine: a chain out of reach must not hide them.
      const balance = await Promise.all([chain.usdcBalance(wallet.address), chain.ethBalance(wallet.address)]).then(
        ([usdc, eth]) => ({
          usdc: unitsToUsd(usdc),
          eth: formatEther(eth),
          line: `${formatUsd(usdc)} USDC, ${formatEther(eth)} ETH.`,
        }),
        (error: unknown) => {
          const reason = error instanceof Error ? error.message.split("\n")[0]! : "the chain did not answer";
          return { usdc: null, eth: null, balanceError: reason, line: `the balance could not be read (${reason}).` };
        },
      );
      const history = ledger.attempts();
      const spent = ledger.spentToday();
      const recent = history.slice(-10).reverse();
      const policy = describePolicy(policyOf(settings), history, new Date(), { confirm: settings.elicitation });
      const local = isLocalChain(settings.rpcUrl);
      const chainWords = chainName(settings.network, settings.rpcUrl, { withUrl: true });
      const funding = local
        ? `Send USDC on ${chainWords} to ${wallet.address}: only that chain holds it, so no public faucet or explorer will show it (the sandbox funds its own buyer wallet when it starts). No ETH is needed: the facilitator pays the gas.`
        : settings.network.testnet
          ? `Send test USDC on ${settings.network.label} to ${wallet.address}: the Circle faucet (${FAUCET}) gives it for free; tokens take a few minutes to arrive. No ETH is needed: the server's facilitator pays the gas.`
          : `Send USDC on ${settings.network.label} to ${wallet.address}. Keep only what you are happy for the agent to spend.`;
      const recentPurchases = recent.map((a) => ({
        time: a.time,
        server: a.server,
        item: a.item,
        amount: unitsToUsd(a.units),
        status: a.status,
        ...(a.transaction ? { transaction: a.transaction } : {}),
        ...(a.jobId ? { jobId: a.jobId } : {}),
        ...(a.checkAfter ? { checkAfter: a.checkAfter } : {}),
      }));
      const money = {
        usdc: balance.usdc,
        eth: balance.eth,
        ...("balanceError" in balance ? { balanceError: balance.balanceError } : {}),
        spentToday: unitsToUsd(spent),
        dailyCap: unitsToUsd(settings.dailyCapUnits),
      };
      const limits = {
        maxPerPurchase: unitsToUsd(settings.maxPerPurchaseUnits),
        confirmationThreshold: unitsToUsd(settings.thresholdUnits),
      };
      const structured = {
        address: wallet.address,
        network: chainWords,
        localChain: local,
        ...money,
        ...limits,
        policy,
        recentPurchases,
        funding,
        walletPage: walletPageUrl(settings.registryUrl, wallet.address),
      };
      const lines = [
        `Wallet ${wallet.address} on ${chainWords}: ${balance.line}`,
        `Spending rules${policy.file ? ` (policy file ${policy.file})` : ""}:`,
        ...policy.rules.map((r) => `- ${r}`),
        "Budgets:",
        ...policy.budgets.map((b) => `- ${b.rule}: ${b.budget}; spent $${b.spent}, $${b.left} left.`),
        recent.length ? "Recent purchases:" : "No purchases yet.",
        ...recent.map(recentLine),
        funding,
        `Balance, purchases and a QR code of the address: ${structured.walletPage}`,
      ];
      return answer(wallet, lines.join("\n"), structured);
    }),
  );
}
