// One purchase, every check in order: re-read the price from the server, check the parameters, refuse above
// the per-purchase maximum, the balance or the daily cap (before anything is signed), ask the person above the
// threshold, reserve under the cap in the ledger, sign an x402 exact payment, buy, treat every refusal as a
// failure, and count it as paid only when the chain shows exactly the price went to the payee.
import { randomBytes } from "node:crypto";
import type { InputRequiredResult } from "@modelcontextprotocol/server";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import {
  MAKE_PURCHASE_TOOL,
  X402_PAYMENT_META,
  buildRequirements,
  encodePaymentV1,
  formatUsd,
  readAccepts,
  readPaymentRequired,
  readPurchaseResult,
  readSettlementResponse,
  sameAddress,
  usdToUnits,
  type PaymentPayloadV1,
  type PaymentRequirementsV1,
  type PaymentRequirementsV2,
  type X402Accept,
} from "@agora-mcp/protocol";
import { readCatalogue, findItem, missingParams } from "./catalogue.js";
import { askPerson, confirmInBand, type Asker, type Confirmations } from "./confirm.js";
import { textOf, withConnection, type Connection, type ConnectionOptions } from "./connections.js";
import type { ChainReader } from "./chain.js";
import { CapExceeded, type PurchaseLedger } from "./ledger.js";
import { resolveServer, type ResolvedServer } from "./servers.js";
import type { Settings } from "./settings.js";
import type { Wallet } from "./wallet.js";

export type PurchaseInput = {
  server: string;
  item: string;
  params?: Record<string, unknown>;
  confirmationId?: string;
  maxPriceUsd?: string;
  /**
   * The exact terms the buyer already knows (the registry's latest check): a server now asking another price or
   * payee is refused as drift before anything is signed.
   */
  expectTerms?: { units: string; payTo: string };
};

export type PurchaseStatus = "delivered" | "free" | "job-pending" | "confirmation-required" | "declined" | "refused" | "drift" | "failed" | "disputed";

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
  /** The payee the server asked to be paid (when the purchase got that far). */
  payTo?: string;
  /** Milliseconds from sending the paid call to its answer. */
  answeredInMs?: number;
  /** A 2026-07-28 host is to ask the person: the purchase tool answers this input_required result as it is. */
  inputRequired?: InputRequiredResult;
};

/**
 * `confirmations` and `asker` ask the person (settings.elicitation); a buyer with nobody to ask (the registry's test
 * purchases) turns elicitation off and leaves them out. `connection` bounds how the server is reached.
 */
export type PurchaseDeps = {
  settings: Settings;
  wallet: Wallet;
  ledger: PurchaseLedger;
  chain: ChainReader;
  confirmations?: Confirmations;
  asker?: Asker;
  connection?: ConnectionOptions;
};

function refused(message: string, extra: Partial<PurchaseOutcome> = {}): PurchaseOutcome {
  return { status: "refused", message, signed: false, ...extra };
}

function confirmationKey(server: ResolvedServer, itemKey: string, units: bigint, params: Record<string, unknown>): string {
  return JSON.stringify([server.url, itemKey, units.toString(), Object.entries(params).sort(([a], [b]) => a.localeCompare(b))]);
}

/** A paid item as this purchase will pay it: the price and payee just read from the server. */
type Priced = { itemKey: string; name: string; units: bigint; payTo: `0x${string}` };

/** What the server answered to a paid call, before the chain is asked. */
type Answer = { ok: true; transaction?: string; result: unknown; orderId?: string; jobId?: string; checkAfterSeconds?: number } | { ok: false; reason: string };

type Context = { deps: PurchaseDeps; input: PurchaseInput; server: ResolvedServer; at: Partial<PurchaseOutcome> };

export async function purchase(input: PurchaseInput, deps: PurchaseDeps): Promise<PurchaseOutcome> {
  const { settings, ledger } = deps;
  const params = input.params ?? {};
  const resolved = await resolveServer(input.server, settings);
  if (!resolved.ok) return refused(resolved.reason);
  const server = resolved.server;
  const base = { server: server.label, serverUrl: server.url };

  return withConnection(server.url, async (c) => {
    const catalogue = await readCatalogue(c, settings.network);
    const item = findItem(catalogue, input.item);
    const x402Tool = item ? undefined : catalogue.x402Tools.find((t) => t.name === input.item.trim());
    if (x402Tool) return buyX402Tool(c, x402Tool.name, { deps, input, server, at: { ...base, item: x402Tool.name } });
    if (!item) {
      const known = [...catalogue.items.map((i) => i.id ?? i.name), ...catalogue.x402Tools.map((t) => t.name)].join(", ") || "none";
      return refused(`"${input.item}" is not sold by ${server.label} (items: ${known}). Nothing was signed.`, base);
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
    if (!catalogue.hasMakePurchase) return refused(`${server.label} has no make-purchase tool. Nothing was signed.`, at);

    if (units === 0n) {
      const outcome = readPurchaseResult(await c.call(MAKE_PURCHASE_TOOL, { itemId: itemKey, params, signedTransaction: "", paymentMethod: settings.network.paymentMethod }));
      if (!outcome.ok) return { status: "failed", message: `${server.label} did not deliver the free item "${item.name}": ${outcome.reason}`, signed: false, ...at, priceUsd };
      await ledger.append({ id: `att_${randomBytes(8).toString("hex")}`, time: new Date().toISOString(), server: server.label, serverUrl: server.url, item: itemKey, units: "0", status: "free", orderId: outcome.orderId });
      return { status: "free", message: `"${item.name}" is free: delivered, nothing signed or paid.`, signed: false, ...at, priceUsd, result: outcome.toolResult, orderId: outcome.orderId };
    }
    if (item.paymentMethod && item.paymentMethod !== settings.network.paymentMethod) {
      return refused(`"${item.name}" is paid in ${item.paymentMethod}; this wallet pays ${settings.network.paymentMethod}. Nothing was signed.`, { ...at, priceUsd });
    }
    if (!catalogue.payTo) return refused(`${server.label} names no wallet for ${settings.network.paymentMethod} in payment-methods. Nothing was signed.`, { ...at, priceUsd });

    const ctx: Context = { deps, input, server, at };
    const priced: Priced = { itemKey, name: item.name, units, payTo: catalogue.payTo };
    return pay(ctx, priced, async () => {
      const requirements = buildRequirements({ network: settings.network, units, payTo: priced.payTo, resource: { url: `${server.url}#${itemKey}`, description: item.name } });
      const signed = (await new ExactEvmSchemeV1(deps.wallet.account).createPaymentPayload(1, requirements.v1 as never)) as unknown as PaymentPayloadV1;
      const send = async (): Promise<Answer> => {
        let raw: unknown;
        try {
          raw = await c.call(MAKE_PURCHASE_TOOL, { itemId: itemKey, params, signedTransaction: encodePaymentV1(signed), paymentMethod: settings.network.paymentMethod });
        } catch (error) {
          return { ok: false, reason: `the call failed: ${(error as Error).message.split("\n")[0]}` };
        }
        const outcome = readPurchaseResult(raw);
        if (!outcome.ok) return { ok: false, reason: outcome.reason };
        return { ok: true, transaction: outcome.transaction, result: outcome.toolResult, orderId: outcome.orderId, jobId: outcome.jobId, checkAfterSeconds: outcome.checkAfterSeconds };
      };
      return { nonce: signed.payload.authorization.nonce as `0x${string}`, send };
    });
  }, deps.connection);
}

/** An item sold through the x402 binding for MCP: the unpaid call answers its PaymentRequired. */
async function buyX402Tool(c: Connection, tool: string, ctx: Context): Promise<PurchaseOutcome> {
  const { settings, wallet } = ctx.deps;
  const params = ctx.input.params ?? {};
  const unpaid = await c.call(tool, params);
  const required = readPaymentRequired(unpaid);
  if (!unpaid.isError || !required) {
    return { status: "failed", message: `${ctx.server.label}'s tool ${tool} answered without asking for payment; nothing was signed.`, signed: false, ...ctx.at, result: textOf(unpaid).slice(0, 2_000) };
  }
  const onNetwork = (a: X402Accept) =>
    (a.version === 2 ? a.requirements.network === settings.network.caip2 : a.requirements.network === settings.network.v1Network) &&
    sameAddress(a.requirements.asset, settings.network.asset);
  const accept = readAccepts(required).find(onNetwork);
  if (!accept) return refused(`${ctx.server.label}'s tool ${tool} accepts no USDC payment on ${settings.network.label}. Nothing was signed.`, ctx.at);
  const units = BigInt(accept.version === 2 ? accept.requirements.amount : accept.requirements.maxAmountRequired);
  const payTo = accept.requirements.payTo;
  if (units === 0n || !/^0x[0-9a-fA-F]{40}$/.test(payTo)) return refused(`${ctx.server.label}'s payment terms for ${tool} are not payable. Nothing was signed.`, ctx.at);
  const priced: Priced = { itemKey: tool, name: tool, units, payTo: payTo as `0x${string}` };
  return pay(ctx, priced, async () => {
    let payment: unknown;
    let nonce: `0x${string}`;
    if (accept.version === 2) {
      const req = accept.requirements as PaymentRequirementsV2;
      const signed = await new ExactEvmScheme(wallet.account).createPaymentPayload(2, req as never);
      const payload = signed.payload as { authorization: { nonce: `0x${string}` } };
      nonce = payload.authorization.nonce;
      payment = { x402Version: 2, accepted: req, payload: signed.payload, resource: required.resource ?? { url: `${ctx.server.url}#${tool}` } };
    } else {
      const signed = (await new ExactEvmSchemeV1(wallet.account).createPaymentPayload(1, accept.requirements as PaymentRequirementsV1 as never)) as unknown as PaymentPayloadV1;
      nonce = signed.payload.authorization.nonce as `0x${string}`;
      payment = encodePaymentV1(signed);
    }
    const send = async (): Promise<Answer> => {
      const paid = await c.call(tool, params, { [X402_PAYMENT_META]: payment });
      if (paid.isError) return { ok: false, reason: readPaymentRequired(paid)?.error ?? textOf(paid).slice(0, 300) };
      const settlement = readSettlementResponse(paid._meta);
      if (!settlement?.success) return { ok: false, reason: "the answer carries no successful settlement" };
      return { ok: true, transaction: settlement.transaction, result: textOf(paid) };
    };
    return { nonce, send };
  });
}

/**
 * The part every paid purchase shares: the limits (before anything is signed), the person's yes, the ledger's
 * reservation under the cap, then the signed call, and the chain's word on what moved.
 */
async function pay(ctx: Context, priced: Priced, sign: () => Promise<{ nonce: `0x${string}`; send: () => Promise<Answer> }>): Promise<PurchaseOutcome> {
  const { settings, wallet, ledger, chain } = ctx.deps;
  const { input, server } = ctx;
  const { units, name, itemKey, payTo } = priced;
  const priceUsd = formatUsd(units);
  const at = { ...ctx.at, priceUsd, payTo };
  if (input.expectTerms && (BigInt(input.expectTerms.units) !== units || !sameAddress(input.expectTerms.payTo, payTo))) {
    const was = `${formatUsd(BigInt(input.expectTerms.units))} to ${input.expectTerms.payTo}`;
    return { status: "drift", message: `${server.label} now asks ${priceUsd} to ${payTo} for "${name}", not the ${was} last recorded. Nothing was signed.`, signed: false, ...at };
  }
  if (input.maxPriceUsd !== undefined && units > usdToUnits(input.maxPriceUsd)) {
    return refused(`${server.label} now asks ${priceUsd} for "${name}", more than the ${formatUsd(usdToUnits(input.maxPriceUsd))} you expected. Nothing was signed.`, at);
  }
  if (units > settings.maxPerPurchaseUnits) {
    return refused(`"${name}" costs ${priceUsd}, above the per-purchase maximum of ${formatUsd(settings.maxPerPurchaseUnits)} (AGORA_MAX_PER_PURCHASE). Nothing was signed.`, at);
  }
  const balance = await chain.usdcBalance(wallet.address);
  if (units > balance) {
    return refused(`"${name}" costs ${priceUsd} but the wallet holds ${formatUsd(balance)} USDC. Fund ${wallet.address} first (see the wallet tool). Nothing was signed.`, at);
  }
  const spent = await ledger.spentToday();
  if (spent + units > settings.dailyCapUnits) return refused(capMessage(name, priceUsd, spent, settings.dailyCapUnits), at);

  // At or above the threshold (0 asks for every paid purchase), as the reference client users know does.
  if (settings.elicitation && units >= settings.thresholdUnits) {
    const question = `Pay ${priceUsd} USDC on ${settings.network.label} to ${server.label} for "${name}"? Payee ${payTo}; today's spending so far ${formatUsd(spent)} of ${formatUsd(settings.dailyCapUnits)}.`;
    const stop = await askFirst(ctx, priced, question, at);
    if (stop) return stop;
  }

  let attempt;
  try {
    attempt = await ledger.reserve({ server: server.label, serverUrl: server.url, item: itemKey, units: units.toString(), payTo }, settings.dailyCapUnits);
  } catch (error) {
    if (error instanceof CapExceeded) return refused(capMessage(name, priceUsd, error.spentUnits, error.capUnits), at);
    throw error;
  }
  let signed;
  try {
    signed = await sign();
  } catch (error) {
    await ledger.update(attempt.id, { status: "refused", note: "signing failed" });
    throw error;
  }
  const sentAt = performance.now();
  const answer: Answer = await signed.send().catch((error: unknown) => ({ ok: false as const, reason: `the call failed: ${(error as Error).message.split("\n")[0]}` }));
  const paid = { ...at, signed: true, answeredInMs: Math.round(performance.now() - sentAt) };

  if (!answer.ok) {
    const moved = await chain.authorizationUsed(wallet.address, signed.nonce).catch(() => undefined);
    if (moved === false) {
      await ledger.update(attempt.id, { status: "refused", note: answer.reason.slice(0, 300) });
      return { status: "failed", message: `${server.label} refused the purchase: ${answer.reason} The payment was not used; nothing was paid.`, ...paid };
    }
    await ledger.update(attempt.id, { status: moved ? "disputed" : "unknown", note: answer.reason.slice(0, 300) });
    return {
      status: "disputed",
      message: moved
        ? `${server.label} took the payment of ${priceUsd} but delivered nothing: ${answer.reason} Quote the payee ${payTo} to the provider.`
        : `${server.label} refused the purchase (${answer.reason}) and the chain could not be read to tell whether the payment was used.`,
      ...paid,
    };
  }
  if (!answer.transaction) {
    const moved = await chain.authorizationUsed(wallet.address, signed.nonce).catch(() => undefined);
    await ledger.update(attempt.id, { status: moved === false ? "refused" : "disputed", note: "no transaction in the answer" });
    return { status: "disputed", message: `${server.label} answered without a settlement transaction, so the payment cannot be checked${moved === false ? " (it was not used: nothing was paid)" : ""}.`, ...paid, result: answer.result };
  }
  const check = await chain.checkPayment({ transaction: answer.transaction, from: wallet.address, payTo, units });
  if (!check.ok) {
    await ledger.update(attempt.id, { status: "disputed", transaction: answer.transaction, note: check.reason.slice(0, 300) });
    return { status: "disputed", message: `${server.label}'s answer does not match the chain: ${check.reason}. Not counted as a good purchase.`, ...paid, transaction: answer.transaction, result: answer.result };
  }
  if (answer.jobId) {
    const checkAfterSeconds = answer.checkAfterSeconds ?? 60;
    const checkAfter = new Date(Date.now() + checkAfterSeconds * 1000).toISOString();
    await ledger.update(attempt.id, { status: "job-pending", transaction: answer.transaction, jobId: answer.jobId, checkAfter, orderId: answer.orderId });
    return {
      status: "job-pending",
      message: `Paid ${priceUsd} (transaction ${answer.transaction}). "${name}" is being prepared: call check_job with jobId "${answer.jobId}" after ${checkAfter} (about ${checkAfterSeconds} s).`,
      ...paid,
      transaction: answer.transaction,
      orderId: answer.orderId,
      jobId: answer.jobId,
      checkAfterSeconds,
    };
  }
  await ledger.update(attempt.id, { status: "paid", transaction: answer.transaction, orderId: answer.orderId });
  return { status: "delivered", message: `Paid ${priceUsd} to ${server.label} for "${name}" (transaction ${answer.transaction}, checked on chain).`, ...paid, transaction: answer.transaction, orderId: answer.orderId, result: answer.result };
}

/** The person's answer before anything is signed: undefined to go on, or the outcome that ends the purchase here. */
async function askFirst(ctx: Context, priced: Priced, question: string, at: Partial<PurchaseOutcome>): Promise<PurchaseOutcome | undefined> {
  const { asker, confirmations, ledger } = ctx.deps;
  const { server, input } = ctx;
  const { name, itemKey, units } = priced;
  const priceUsd = formatUsd(units);
  if (!asker || !confirmations) throw new Error("Elicitation is on, but this buyer has nobody to ask.");
  const declined = async (): Promise<PurchaseOutcome> => {
    await ledger.append({ id: `att_${randomBytes(8).toString("hex")}`, time: new Date().toISOString(), server: server.label, serverUrl: server.url, item: itemKey, units: units.toString(), status: "declined" });
    return { status: "declined", message: `You declined paying ${priceUsd} for "${name}". Nothing was signed or paid.`, signed: false, ...at };
  };
  if (asker.kind === "input-required") {
    const quote = { server: server.url, item: itemKey, units: units.toString(), payTo: priced.payTo, params: confirmationKey(server, itemKey, units, input.params ?? {}) };
    const answer = await confirmInBand(asker, quote, question);
    if (answer.kind === "ask") return { status: "confirmation-required", message: `Confirmation required: ${question}`, signed: false, ...at, inputRequired: answer.result };
    if (answer.kind === "refused") return refused(`${answer.reason} Nothing was signed.`, at);
    return answer.kind === "accepted" ? undefined : declined();
  }
  if (asker.kind === "elicitation") return (await askPerson(asker.server, question)) === "accepted" ? undefined : declined();
  const key = confirmationKey(server, itemKey, units, input.params ?? {});
  if (input.confirmationId && confirmations.redeem(input.confirmationId, key)) return undefined;
  const { confirmationId, expiresAt } = confirmations.issue(key);
  return {
    status: "confirmation-required",
    message: `Confirmation required: ${question} Ask the person; only if they say yes, call purchase again with the same server, item and params and confirmationId "${confirmationId}" (valid once, until ${expiresAt}). Nothing was signed.`,
    signed: false,
    ...at,
    confirmationId,
  };
}

function capMessage(name: string, priceUsd: string, spent: bigint, cap: bigint): string {
  return `"${name}" costs ${priceUsd}, but today's spending is ${formatUsd(spent)} of the ${formatUsd(cap)} daily cap (AGORA_DAILY_CAP). Nothing was signed.`;
}
