// The person's yes before anything is signed, at or above the confirmation threshold, in whatever way the host can
// ask (confirm.ts): the question names the price, payee, network and the budgets the purchase draws on.
import { randomBytes } from "node:crypto";
import { formatUsd, sameAddress } from "@agora-mcp/protocol";
import { askPerson, confirmInBand, type Confirmations } from "../confirm.js";
import { chainName } from "../local-chain.js";
import { describeUses, type BudgetUse } from "../policy/check.js";
import type { ResolvedServer } from "../servers.js";
import { refused, type Context, type Priced, type PurchaseOutcome, type SettlementOrder } from "./types.js";

/** The purchase a confirmation id is for; the price and payee it was confirmed on are kept beside it (Confirmations). */
function confirmationKey(server: ResolvedServer, itemKey: string, params: Record<string, unknown>): string {
  return JSON.stringify([server.url, itemKey, Object.entries(params).sort(([a], [b]) => a.localeCompare(b))]);
}

/**
 * Whether a confirmation id the person gave covers these terms: the same payee, at most the price they were shown.
 * Otherwise the words saying what changed (empty when the id was not for this purchase at all).
 */
function redeemed(confirmations: Confirmations, confirmationId: string, key: string, priced: Priced): true | string {
  const confirmed = confirmations.take(confirmationId, key)?.terms;
  if (!confirmed) return "";
  if ((priced.channel?.deposit ?? priced.units) <= confirmed.units && sameAddress(priced.payTo, confirmed.payTo))
    return true;
  return `The terms changed since the person confirmed: they were shown ${formatUsd(confirmed.units)} to ${confirmed.payTo}; the server now asks ${formatUsd(priced.units)} to ${priced.payTo}. `;
}

/** Which order the payment is taken in, said in every confirmation (the x402 binding charges only a call that succeeded). */
export const ORDER_WORDS: Record<SettlementOrder, string> = {
  "after-success": "You pay only if the tool succeeds.",
  before: "Payment is taken before the tool runs.",
  unknown: "This server does not say whether payment is taken before or after the tool runs.",
};

export function question(ctx: Context, priced: Priced, uses: BudgetUse[]): string {
  const { settings } = ctx.deps;
  if (priced.channel?.deposit !== undefined) return channelQuestion(ctx, priced, priced.channel.deposit, uses);
  const day = uses.find((u) => u.rule.startsWith("budgets.day"));
  const today = day ? ` today's spending so far ${formatUsd(day.spent)} of ${formatUsd(day.limit)}.` : "";
  const budgets = describeUses(uses, priced.units);
  // Metered: the signed maximum is what the person agrees to; the server settles what the call used.
  const amount = priced.metered
    ? `up to ${formatUsd(priced.units)} (metered: you pay what the call uses)`
    : formatUsd(priced.units);
  return `Pay ${amount} USDC on ${chainName(settings.network, settings.rpcUrl)} to ${ctx.server.label} for "${priced.name}"? ${ORDER_WORDS[priced.order]} Payee ${priced.payTo};${today}${budgets ? ` ${budgets}` : ""}`;
}

/**
 * Opening (or topping up) a payment channel: the deposit and the per-call price are named, and the person is asked
 * this once for the deposit, not for each call it pays.
 */
function channelQuestion(ctx: Context, priced: Priced, deposit: bigint, uses: BudgetUse[]): string {
  const { settings } = ctx.deps;
  const calls = deposit / priced.units;
  const verb =
    priced.channel!.balance > 0n
      ? `Top up your payment channel with ${ctx.server.label} by`
      : `Open a payment channel with ${ctx.server.label}: deposit`;
  const budgets = describeUses(uses, priced.units);
  return `${verb} ${formatUsd(deposit)} USDC on ${chainName(settings.network, settings.rpcUrl)} for "${priced.name}" at ${formatUsd(priced.units)} per call (about ${calls} calls)? Each call is then paid from the channel without asking again, and counts against your budgets when it is paid; what the calls do not use comes back when the channel is closed. ${ORDER_WORDS[priced.order]} Payee ${priced.payTo};${budgets ? ` ${budgets}` : ""}`;
}

/** undefined to go on; otherwise the outcome that ends the purchase here (declined, or a confirmation to come back with). */
export async function askFirst(ctx: Context, priced: Priced, uses: BudgetUse[]): Promise<PurchaseOutcome | undefined> {
  const { settings, asker, confirmations, ledger } = ctx.deps;
  const { server, input } = ctx;
  const { name, itemKey } = priced;
  // A payment channel is confirmed once per deposit: its vouchers are what the person already agreed to.
  if (priced.channel && priced.channel.deposit === undefined) return undefined;
  // What is at stake: the price, or the deposit a channel's opening call makes.
  const units = priced.channel?.deposit ?? priced.units;
  // At or above the threshold (0 asks for every paid purchase), as the reference client users know does.
  if (!settings.elicitation || units < settings.thresholdUnits) return undefined;
  if (!asker || !confirmations) throw new Error("Elicitation is on, but this buyer has nobody to ask.");
  const at = { ...ctx.at, priceUsd: formatUsd(units), payTo: priced.payTo };
  const asked = question(ctx, priced, uses);
  const declined = async (): Promise<PurchaseOutcome> => {
    await ledger.append({
      id: `att_${randomBytes(8).toString("hex")}`,
      time: new Date().toISOString(),
      server: server.label,
      serverUrl: server.url,
      item: itemKey,
      units: units.toString(),
      status: "declined",
    });
    return {
      status: "declined",
      code: "declined",
      message: `You declined paying ${formatUsd(units)} for "${name}". Nothing was signed or paid.`,
      signed: false,
      ...at,
    };
  };
  const key = confirmationKey(server, itemKey, input.params ?? {});
  if (asker.kind === "input-required") {
    const answer = await confirmInBand(
      asker,
      { server: server.url, item: itemKey, units: units.toString(), payTo: priced.payTo, params: key },
      asked,
    );
    if (answer.kind === "ask")
      return {
        status: "confirmation-required",
        code: "confirmation_required",
        message: `Confirmation required: ${asked}`,
        signed: false,
        ...at,
        inputRequired: answer.result,
      };
    if (answer.kind === "refused") return refused("confirmation_invalid", `${answer.reason} Nothing was signed.`, at);
    return answer.kind === "accepted" ? undefined : declined();
  }
  if (asker.kind === "elicitation")
    return (await askPerson(asker.server, asked)) === "accepted" ? undefined : declined();
  const given = input.confirmationId ? redeemed(confirmations, input.confirmationId, key, priced) : "";
  if (given === true) return undefined;
  const { confirmationId, expiresAt } = confirmations.issue(key, { units, payTo: priced.payTo });
  return {
    status: "confirmation-required",
    code: "confirmation_required",
    message: `${given}Confirmation required: ${asked} Ask the person; only if they say yes, call purchase again with the same server, item and params and confirmationId "${confirmationId}" (valid once, until ${expiresAt}). Nothing was signed.`,
    signed: false,
    ...at,
    confirmationId,
  };
}
