// Paying a priced offer: the checks before anything is signed, the person's yes, the reservation (every rule of the
// policy checked again under the ledger's lock, so two buyers at once cannot pass one budget together), then the
// signature, the paid call, and the receipt that reads its answer.
import { formatUsd } from "@agora-mcp/protocol";
import type { Connection } from "../connections.js";
import { CapExceeded, PolicyRefused, type LedgerEntry } from "../ledger.js";
import { checkPolicy, type PolicyRequest } from "../policy/check.js";
import { askFirst } from "./ask.js";
import { sendDeliveryReceipt } from "./delivery-receipt.js";
import { checkBeforeSigning, policyOf } from "./check.js";
import { receipt } from "./receipt.js";
import { send, sign } from "./sign.js";
import { refused, type Context, type PricedOffer, type PurchaseOutcome, type Signed } from "./types.js";

/**
 * The ledger's new attempt, or the refusal that stops the purchase before anything is signed: a wallet's ledger
 * checks every rule of the policy under its lock, a budget ledger the day's cap.
 */
async function reserve(
  ctx: Context,
  offer: PricedOffer,
  request: PolicyRequest,
): Promise<{ id: string } | { done: PurchaseOutcome }> {
  const { settings, ledger } = ctx.deps;
  const entry = {
    server: ctx.server.label,
    serverUrl: ctx.server.url,
    item: offer.itemKey,
    units: offer.units.toString(),
    payTo: offer.payTo,
    params: request.params,
  };
  const at = { ...ctx.at, priceUsd: formatUsd(offer.units), payTo: offer.payTo };
  try {
    if (ledger.kind === "wallet") {
      const policy = policyOf(settings);
      const check = (attempts: LedgerEntry[], now: Date) => {
        const verdict = checkPolicy(policy, attempts, request, now);
        return verdict.ok ? undefined : verdict.refusal;
      };
      return await ledger.reserveChecked(entry, check);
    }
    return await ledger.reserve(entry, settings.dailyCapUnits);
  } catch (error) {
    if (error instanceof PolicyRefused)
      return { done: refused("policy_rule", `${error.message} Nothing was signed.`, { ...at, rule: error.rule }) };
    if (error instanceof CapExceeded) {
      const left = error.capUnits > error.spentUnits ? error.capUnits - error.spentUnits : 0n;
      const message = `Refused by the daily cap (budgets.day): "${offer.name}" costs ${at.priceUsd}, but today's spending is ${formatUsd(error.spentUnits)} of the ${formatUsd(error.capUnits)} daily cap (${formatUsd(left)} left). Nothing was signed.`;
      return { done: refused("daily_cap", message, { ...at, rule: "budgets.day" }) };
    }
    throw error;
  }
}

/**
 * Every paid purchase: checks, the person's yes, the reservation, the signature, the call, and its receipt; then,
 * in the background, the signed delivery receipt for the registry.
 */
export async function pay(c: Connection, ctx: Context, offer: PricedOffer): Promise<PurchaseOutcome> {
  const checked = await checkBeforeSigning(ctx, offer);
  if ("done" in checked) return checked.done;
  const stop = await askFirst(ctx, offer, checked.uses);
  if (stop) return stop;
  const reserved = await reserve(ctx, offer, checked.request);
  if ("done" in reserved) return reserved.done;
  let signed: Signed;
  try {
    signed = await sign(ctx, offer);
  } catch (error) {
    await ctx.deps.ledger.update(reserved.id, { status: "refused", code: "signing_failed", note: "signing failed" });
    throw error;
  }
  const sent = await send(c, signed);
  const outcome = await receipt(ctx, offer, sent, { attemptId: reserved.id, proof: signed.proof });
  sendDeliveryReceipt(ctx, offer, outcome, signed.proof);
  return outcome;
}
