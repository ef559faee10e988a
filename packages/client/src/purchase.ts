// One purchase, every check in order: re-read the price from the server, check the parameters, refuse above
// the per-purchase maximum, the balance or the daily cap (before anything is signed), ask the person above the
// threshold, reserve under the cap in the ledger, sign an x402 exact payment, buy, treat every refusal as a
// failure, and count it as paid only when the chain shows exactly the price went to the payee.
import { randomBytes } from "node:crypto";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import {
  MAKE_PURCHASE_TOOL,
  buildRequirements,
  encodePaymentV1,
  formatUsd,
  readPurchaseResult,
  usdToUnits,
  type PaymentPayloadV1,
  type PricedItem,
} from "@agora-mcp/protocol";
import { readCatalogue, findItem, missingParams } from "./catalogue.js";
import { askPerson, supportsElicitation, type Confirmations } from "./confirm.js";
import { withConnection } from "./connections.js";
import type { ChainReader } from "./chain.js";
import { CapExceeded, type Ledger } from "./ledger.js";
import { resolveServer, type ResolvedServer } from "./servers.js";
import type { Settings } from "./settings.js";
import type { Wallet } from "./wallet.js";

export type PurchaseInput = {
  server: string;
  item: string;
  params?: Record<string, unknown>;
  confirmationId?: string;
  maxPriceUsd?: string;
};

export type PurchaseStatus = "delivered" | "free" | "job-pending" | "confirmation-required" | "declined" | "refused" | "failed" | "disputed";

export type PurchaseOutcome = {
  status: PurchaseStatus;
  message: string;
  server?: string;
  serverUrl?: string;
  item?: string;
  priceUsd?: string;
  /** Whether a payment authorisation was signed. */
  signed: boolean;
  transaction?: string;
  orderId?: string;
  result?: unknown;
  jobId?: string;
  checkAfterSeconds?: number;
  confirmationId?: string;
  missingParams?: string[];
};

export type PurchaseDeps = { settings: Settings; wallet: Wallet; ledger: Ledger; chain: ChainReader; confirmations: Confirmations; mcp: Server };

function refused(message: string, extra: Partial<PurchaseOutcome> = {}): PurchaseOutcome {
  return { status: "refused", message, signed: false, ...extra };
}

function confirmationKey(server: ResolvedServer, item: PricedItem, units: bigint, params: Record<string, unknown>): string {
  return JSON.stringify([server.url, item.id ?? item.name, units.toString(), Object.entries(params).sort(([a], [b]) => a.localeCompare(b))]);
}

export async function purchase(input: PurchaseInput, deps: PurchaseDeps): Promise<PurchaseOutcome> {
  const { settings, wallet, ledger, chain } = deps;
  const params = input.params ?? {};
  const server = await resolveServer(input.server, settings);
  if (!server.ok) return refused(server.reason);
  const { url, label } = server.server;
  const base = { server: label, serverUrl: url };

  return withConnection(url, async (c) => {
    const catalogue = await readCatalogue(c, settings.network);
    const item = findItem(catalogue, input.item);
    if (!item) {
      const known = catalogue.items.map((i) => i.id ?? i.name).join(", ") || "none";
      return refused(`"${input.item}" is not sold by ${label} (items: ${known}). Nothing was signed.`, base);
    }
    const itemKey = item.id ?? item.name;
    const at = { ...base, item: itemKey };
    const units = BigInt(item.units ?? usdToUnits(item.amount).toString());
    const priceUsd = formatUsd(units);
    const missing = missingParams(item, params);
    if (missing.length) {
      const hints = missing.map((n) => `${n} (${item.params?.[n] ?? "required"})`).join(", ");
      return refused(`Missing parameters for "${item.name}": ${hints}. Nothing was signed.`, { ...at, priceUsd, missingParams: missing });
    }
    if (!catalogue.hasMakePurchase) return refused(`${label} has no make-purchase tool. Nothing was signed.`, at);

    if (units === 0n) {
      const outcome = readPurchaseResult(await c.call(MAKE_PURCHASE_TOOL, { itemId: itemKey, params, signedTransaction: "", paymentMethod: settings.network.paymentMethod }));
      if (!outcome.ok) return { status: "failed", message: `${label} did not deliver the free item "${item.name}": ${outcome.reason}`, signed: false, ...at, priceUsd };
      await ledger.append({ id: `att_${randomBytes(8).toString("hex")}`, time: new Date().toISOString(), server: label, serverUrl: url, item: itemKey, units: "0", status: "free", orderId: outcome.orderId });
      return { status: "free", message: `"${item.name}" is free: delivered, nothing signed or paid.`, signed: false, ...at, priceUsd, result: outcome.toolResult, orderId: outcome.orderId };
    }

    if (item.paymentMethod && item.paymentMethod !== settings.network.paymentMethod) {
      return refused(`"${item.name}" is paid in ${item.paymentMethod}; this wallet pays ${settings.network.paymentMethod}. Nothing was signed.`, { ...at, priceUsd });
    }
    if (!catalogue.payTo) {
      return refused(`${label} names no wallet for ${settings.network.paymentMethod} in payment-methods. Nothing was signed.`, { ...at, priceUsd });
    }
    if (input.maxPriceUsd !== undefined && units > usdToUnits(input.maxPriceUsd)) {
      return refused(`${label} now asks ${priceUsd} for "${item.name}", more than the ${formatUsd(usdToUnits(input.maxPriceUsd))} you expected. Nothing was signed.`, { ...at, priceUsd });
    }
    if (units > settings.maxPerPurchaseUnits) {
      return refused(`"${item.name}" costs ${priceUsd}, above the per-purchase maximum of ${formatUsd(settings.maxPerPurchaseUnits)} (AGORA_MAX_PER_PURCHASE). Nothing was signed.`, { ...at, priceUsd });
    }
    const balance = await chain.usdcBalance(wallet.address);
    if (units > balance) {
      return refused(`"${item.name}" costs ${priceUsd} but the wallet holds ${formatUsd(balance)} USDC. Fund ${wallet.address} first (see the wallet tool). Nothing was signed.`, { ...at, priceUsd });
    }
    const spent = ledger.spentToday();
    if (spent + units > settings.dailyCapUnits) {
      return refused(capMessage(item.name, priceUsd, spent, settings.dailyCapUnits), { ...at, priceUsd });
    }

    if (settings.elicitation && units > settings.thresholdUnits) {
      const question = `Pay ${priceUsd} USDC on ${settings.network.label} to ${label} for "${item.name}"? Payee ${catalogue.payTo}; today's spending so far ${formatUsd(spent)} of ${formatUsd(settings.dailyCapUnits)}.`;
      if (supportsElicitation(deps.mcp)) {
        if ((await askPerson(deps.mcp, question)) !== "accepted") {
          await ledger.append({ id: `att_${randomBytes(8).toString("hex")}`, time: new Date().toISOString(), server: label, serverUrl: url, item: itemKey, units: units.toString(), status: "declined" });
          return { status: "declined", message: `You declined paying ${priceUsd} for "${item.name}". Nothing was signed or paid.`, signed: false, ...at, priceUsd };
        }
      } else {
        const key = confirmationKey(server.server, item, units, params);
        if (!input.confirmationId || !deps.confirmations.redeem(input.confirmationId, key)) {
          const { confirmationId, expiresAt } = deps.confirmations.issue(key);
          return {
            status: "confirmation-required",
            message: `Confirmation required: ${question} Ask the person; only if they say yes, call purchase again with the same server, item and params and confirmationId "${confirmationId}" (valid once, until ${expiresAt}). Nothing was signed.`,
            signed: false,
            ...at,
            priceUsd,
            confirmationId,
          };
        }
      }
    }

    let attempt;
    try {
      attempt = await ledger.reserve({ server: label, serverUrl: url, item: itemKey, units: units.toString(), payTo: catalogue.payTo }, settings.dailyCapUnits);
    } catch (error) {
      if (error instanceof CapExceeded) return refused(capMessage(item.name, priceUsd, error.spentUnits, error.capUnits), { ...at, priceUsd });
      throw error;
    }

    const requirements = buildRequirements({ network: settings.network, units, payTo: catalogue.payTo, resource: { url: `${url}#${itemKey}`, description: item.name } });
    const signedPayment = (await new ExactEvmSchemeV1(wallet.account).createPaymentPayload(1, requirements.v1 as never)) as unknown as PaymentPayloadV1;
    const nonce = signedPayment.payload.authorization.nonce as `0x${string}`;
    let raw: unknown;
    try {
      raw = await c.call(MAKE_PURCHASE_TOOL, { itemId: itemKey, params, signedTransaction: encodePaymentV1(signedPayment), paymentMethod: settings.network.paymentMethod });
    } catch (error) {
      raw = { isError: true, content: [{ type: "text", text: `The call failed: ${(error as Error).message.split("\n")[0]}` }] };
    }
    const outcome = readPurchaseResult(raw);
    const paid = { ...at, priceUsd, signed: true };

    if (!outcome.ok) {
      const moved = await chain.authorizationUsed(wallet.address, nonce).catch(() => undefined);
      if (moved === false) {
        await ledger.update(attempt.id, { status: "refused", note: outcome.reason.slice(0, 300) });
        return { status: "failed", message: `${label} refused the purchase: ${outcome.reason} The payment was not used; nothing was paid.`, ...paid };
      }
      await ledger.update(attempt.id, { status: moved ? "disputed" : "unknown", note: outcome.reason.slice(0, 300) });
      return {
        status: "disputed",
        message: moved
          ? `${label} took the payment of ${priceUsd} but delivered nothing: ${outcome.reason} Quote the payee ${catalogue.payTo} to the provider.`
          : `${label} refused the purchase (${outcome.reason}) and the chain could not be read to tell whether the payment was used.`,
        ...paid,
      };
    }
    if (!outcome.transaction) {
      const moved = await chain.authorizationUsed(wallet.address, nonce).catch(() => undefined);
      await ledger.update(attempt.id, { status: moved === false ? "refused" : "disputed", note: "no transaction in the answer" });
      return { status: "disputed", message: `${label} answered without a settlement transaction, so the payment cannot be checked${moved === false ? " (it was not used: nothing was paid)" : ""}.`, ...paid, result: outcome.toolResult };
    }
    const check = await chain.checkPayment({ transaction: outcome.transaction, from: wallet.address, payTo: catalogue.payTo, units });
    if (!check.ok) {
      await ledger.update(attempt.id, { status: "disputed", transaction: outcome.transaction, note: check.reason.slice(0, 300) });
      return { status: "disputed", message: `${label}'s answer does not match the chain: ${check.reason}. Not counted as a good purchase.`, ...paid, transaction: outcome.transaction, result: outcome.toolResult };
    }
    if (outcome.jobId) {
      const checkAfterSeconds = outcome.checkAfterSeconds ?? 60;
      const checkAfter = new Date(Date.now() + checkAfterSeconds * 1000).toISOString();
      await ledger.update(attempt.id, { status: "job-pending", transaction: outcome.transaction, jobId: outcome.jobId, checkAfter, orderId: outcome.orderId });
      return {
        status: "job-pending",
        message: `Paid ${priceUsd} (transaction ${outcome.transaction}). "${item.name}" is being prepared: call check_job with jobId "${outcome.jobId}" after ${checkAfter} (about ${checkAfterSeconds} s).`,
        ...paid,
        transaction: outcome.transaction,
        orderId: outcome.orderId,
        jobId: outcome.jobId,
        checkAfterSeconds,
      };
    }
    await ledger.update(attempt.id, { status: "paid", transaction: outcome.transaction, orderId: outcome.orderId });
    return { status: "delivered", message: `Paid ${priceUsd} to ${label} for "${item.name}" (transaction ${outcome.transaction}, checked on chain).`, ...paid, transaction: outcome.transaction, orderId: outcome.orderId, result: outcome.toolResult };
  });
}

function capMessage(name: string, priceUsd: string, spent: bigint, cap: bigint): string {
  return `"${name}" costs ${priceUsd}, but today's spending is ${formatUsd(spent)} of the ${formatUsd(cap)} daily cap (AGORA_DAILY_CAP). Nothing was signed.`;
}
