// The person's yes before anything is signed, at or above the confirmation threshold, in whatever way the host can
// ask (confirm.ts): the question names the price, payee, network and the budgets the purchase draws on.
import { randomBytes } from "node:crypto";
import { formatUsd } from "@agora-mcp/protocol";
import { askPerson, confirmInBand } from "../confirm.js";
import { describeUses, type BudgetUse } from "../policy/check.js";
import type { ResolvedServer } from "../servers.js";
import { refused, type Context, type Priced, type PurchaseOutcome } from "./types.js";

function confirmationKey(server: ResolvedServer, itemKey: string, units: bigint, params: Record<string, unknown>): string {
  return JSON.stringify([server.url, itemKey, units.toString(), Object.entries(params).sort(([a], [b]) => a.localeCompare(b))]);
}

export function question(ctx: Context, priced: Priced, uses: BudgetUse[]): string {
  const { settings } = ctx.deps;
  const day = uses.find((u) => u.rule.startsWith("budgets.day"));
  const today = day ? ` today's spending so far ${formatUsd(day.spent)} of ${formatUsd(day.limit)}.` : "";
  const budgets = describeUses(uses, priced.units);
  return `Pay ${formatUsd(priced.units)} USDC on ${settings.network.label} to ${ctx.server.label} for "${priced.name}"? Payee ${priced.payTo};${today}${budgets ? ` ${budgets}` : ""}`;
}

/** undefined to go on; otherwise the outcome that ends the purchase here (declined, or a confirmation to come back with). */
export async function askFirst(ctx: Context, priced: Priced, uses: BudgetUse[]): Promise<PurchaseOutcome | undefined> {
  const { settings, asker, confirmations, ledger } = ctx.deps;
  const { server, input } = ctx;
  const { name, itemKey, units } = priced;
  // At or above the threshold (0 asks for every paid purchase), as the reference client users know does.
  if (!settings.elicitation || units < settings.thresholdUnits) return undefined;
  if (!asker || !confirmations) throw new Error("Elicitation is on, but this buyer has nobody to ask.");
  const at = { ...ctx.at, priceUsd: formatUsd(units), payTo: priced.payTo };
  const asked = question(ctx, priced, uses);
  const declined = async (): Promise<PurchaseOutcome> => {
    await ledger.append({ id: `att_${randomBytes(8).toString("hex")}`, time: new Date().toISOString(), server: server.label, serverUrl: server.url, item: itemKey, units: units.toString(), status: "declined" });
    return { status: "declined", message: `You declined paying ${formatUsd(units)} for "${name}". Nothing was signed or paid.`, signed: false, ...at };
  };
  const key = confirmationKey(server, itemKey, units, input.params ?? {});
  if (asker.kind === "input-required") {
    const answer = await confirmInBand(asker, { server: server.url, item: itemKey, units: units.toString(), payTo: priced.payTo, params: key }, asked);
    if (answer.kind === "ask") return { status: "confirmation-required", message: `Confirmation required: ${asked}`, signed: false, ...at, inputRequired: answer.result };
    if (answer.kind === "refused") return refused(`${answer.reason} Nothing was signed.`, at);
    return answer.kind === "accepted" ? undefined : declined();
  }
  if (asker.kind === "elicitation") return (await askPerson(asker.server, asked)) === "accepted" ? undefined : declined();
  if (input.confirmationId && confirmations.redeem(input.confirmationId, key)) return undefined;
  const { confirmationId, expiresAt } = confirmations.issue(key);
  return {
    status: "confirmation-required",
    message: `Confirmation required: ${asked} Ask the person; only if they say yes, call purchase again with the same server, item and params and confirmationId "${confirmationId}" (valid once, until ${expiresAt}). Nothing was signed.`,
    signed: false,
    ...at,
    confirmationId,
  };
}
