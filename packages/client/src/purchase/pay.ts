// Paying: the reservation (every rule of the policy checked again under the ledger's lock, so two buyers at once
// cannot pass one budget together), then the signature, then the paid call; the receipt step reads the answer.
import { formatUsd } from "@agora-mcp/protocol";
import { CapExceeded, PolicyRefused, type LedgerEntry } from "../ledger.js";
import { checkPolicy, type PolicyRequest } from "../policy/check.js";
import { askFirst } from "./ask.js";
import { sendDeliveryReceipt } from "./delivery-receipt.js";
import { checkBeforeSigning, policyOf } from "./check.js";
import { receipt } from "./receipt.js";
import { refused, type Answer, type Context, type Priced, type PurchaseOutcome, type Signer } from "./types.js";

/** The ledger's new attempt, or the refusal that stops the purchase before anything is signed. */
async function reserve(
  ctx: Context,
  priced: Priced,
  request: PolicyRequest,
): Promise<{ id: string } | { done: PurchaseOutcome }> {
  const { settings, ledger } = ctx.deps;
  const entry = {
    server: ctx.server.label,
    serverUrl: ctx.server.url,
    item: priced.itemKey,
    units: priced.units.toString(),
    payTo: priced.payTo,
    params: request.params,
  };
  const at = { ...ctx.at, priceUsd: formatUsd(priced.units), payTo: priced.payTo };
  try {
    if (ledger.reserveChecked) {
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
      const message = `Refused by the daily cap (budgets.day): "${priced.name}" costs ${at.priceUsd}, but today's spending is ${formatUsd(error.spentUnits)} of the ${formatUsd(error.capUnits)} daily cap (${formatUsd(left)} left). Nothing was signed.`;
      return { done: refused("daily_cap", message, { ...at, rule: "budgets.day" }) };
    }
    throw error;
  }
}

/**
 * Every paid purchase: checks, the person's yes, the reservation, the signature, the call, and its receipt; then,
 * in the background, the signed delivery receipt for the registry.
 */
export async function pay(ctx: Context, priced: Priced, sign: Signer): Promise<PurchaseOutcome> {
  const { ledger } = ctx.deps;
  const checked = await checkBeforeSigning(ctx, priced);
  if ("done" in checked) return checked.done;
  const stop = await askFirst(ctx, priced, checked.uses);
  if (stop) return stop;
  const reserved = await reserve(ctx, priced, checked.request);
  if ("done" in reserved) return reserved.done;
  let signed;
  try {
    signed = await sign();
  } catch (error) {
    await ledger.update(reserved.id, { status: "refused", code: "signing_failed", note: "signing failed" });
    throw error;
  }
  const sentAt = performance.now();
  const answer: Answer = await signed.send().catch((error: unknown) => ({
    ok: false as const,
    code: "no_answer" as const,
    reason: `the call failed: ${(error as Error).message.split("\n")[0]}`,
  }));
  const outcome = await receipt(ctx, priced, {
    attemptId: reserved.id,
    proof: signed.proof,
    answer,
    answeredInMs: Math.round(performance.now() - sentAt),
  });
  sendDeliveryReceipt(ctx, priced, outcome, signed.proof);
  return outcome;
}
