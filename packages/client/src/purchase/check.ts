// The checks before anything is signed: the terms the listing shows and the buyer expected, the spending policy
// (every rule, against this wallet's history), and the balance. The policy is checked again under the ledger's lock
// when reserving.
import { createHash } from "node:crypto";
import { formatUsd, sameAddress, usdToUnits } from "@agora-mcp/protocol";
import { checkPolicy, type BudgetUse, type PolicyRequest } from "../policy/check.js";
import { capsPolicy, type Policy } from "../policy/rules.js";
import type { Settings } from "../settings.js";
import { checkAgainstListing } from "./listing.js";
import { refused, type Context, type Priced, type PurchaseOutcome } from "./types.js";

export type Checked = { done: PurchaseOutcome } | { uses: BudgetUse[]; request: PolicyRequest };

export function policyOf(settings: Settings): Policy {
  return settings.policy ?? capsPolicy(settings);
}

/** The purchase as the policy sees it; the parameters only as a digest (identical purchases compare them). */
export function policyRequest(ctx: Context, priced: Priced): PolicyRequest {
  const params = Object.entries(ctx.input.params ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const digest = createHash("sha256").update(JSON.stringify(params)).digest("hex").slice(0, 32);
  return {
    server: ctx.server.label,
    serverUrl: ctx.server.url,
    names: ctx.server.names,
    item: priced.itemKey,
    params: digest,
    units: priced.units,
    payTo: priced.payTo,
    delivery: ctx.server.terms?.delivery30d ?? null,
  };
}

export async function checkBeforeSigning(ctx: Context, priced: Priced): Promise<Checked> {
  const { settings, wallet, ledger, chain } = ctx.deps;
  const { input, server } = ctx;
  const { units, name, payTo } = priced;
  const priceUsd = formatUsd(units);
  const at = { ...ctx.at, priceUsd, payTo };
  const unlisted = checkAgainstListing(ctx, priced);
  if (unlisted) return { done: unlisted };
  if (
    input.expectTerms &&
    (BigInt(input.expectTerms.units) !== units || !sameAddress(input.expectTerms.payTo, payTo))
  ) {
    const was = `${formatUsd(BigInt(input.expectTerms.units))} to ${input.expectTerms.payTo}`;
    return {
      done: {
        status: "drift",
        code: "price_changed",
        message: `${server.label} now asks ${priceUsd} to ${payTo} for "${name}", not the ${was} last recorded. Nothing was signed.`,
        signed: false,
        ...at,
      },
    };
  }
  if (input.maxPriceUsd !== undefined && units > usdToUnits(input.maxPriceUsd)) {
    return {
      done: refused(
        "price_changed",
        `${server.label} now asks ${priceUsd} for "${name}", more than the ${formatUsd(usdToUnits(input.maxPriceUsd))} you expected. Nothing was signed.`,
        at,
      ),
    };
  }
  const request = policyRequest(ctx, priced);
  let uses: BudgetUse[] = [];
  if (ledger.kind === "wallet") {
    const verdict = checkPolicy(policyOf(settings), ledger.attempts(), request);
    if (!verdict.ok)
      return {
        done: refused("policy_rule", `${verdict.refusal.message} Nothing was signed.`, {
          ...at,
          rule: verdict.refusal.rule,
        }),
      };
    uses = verdict.uses;
  } else {
    // A ledger that keeps no history here (the registry's database): the maximum now, its daily budget when reserving.
    if (units > settings.maxPerPurchaseUnits)
      return {
        done: refused(
          "max_per_purchase",
          `"${name}" costs ${priceUsd}, above the per-purchase maximum of ${formatUsd(settings.maxPerPurchaseUnits)}. Nothing was signed.`,
          { ...at, rule: "maxPerPurchase" },
        ),
      };
  }
  // A call on a payment channel takes nothing from the wallet unless it deposits; then the deposit must be there.
  const needs = priced.channel ? (priced.channel.deposit ?? 0n) : units;
  const balance = needs > 0n ? await chain.usdcBalance(wallet.address) : 0n;
  if (needs > balance) {
    const what = priced.channel
      ? `opening a payment channel for "${name}" deposits ${formatUsd(needs)}`
      : `"${name}" costs ${priceUsd}`;
    return {
      done: refused(
        "insufficient_balance",
        `${what} but the wallet holds ${formatUsd(balance)} USDC. Fund ${wallet.address} first (see the wallet tool). Nothing was signed.`,
        at,
      ),
    };
  }
  return { uses, request };
}
