// The policy as a person reads it: each rule in a line, and what is left of each budget now (the wallet tool).
import { formatUsd, unitsToUsd } from "@agora-mcp/protocol";
import type { LedgerEntry } from "../ledger.js";
import { budgetStanding } from "./check.js";
import { ruleName, type Limit, type Policy } from "./rules.js";

export type PolicyView = {
  file: string | null;
  rules: string[];
  budgets: { rule: string; budget: string; limit: string; spent: string; left: string }[];
};

/** `confirm` is false when ENABLE_REQUEST_ELICITATION turned confirmation off: the threshold then asks nobody. */
export function describePolicy(
  policy: Policy,
  history: LedgerEntry[],
  now = new Date(),
  { confirm = true } = {},
): PolicyView {
  const line = (limit: Limit<unknown> | undefined, text: (value: never) => string) =>
    limit ? [`${ruleName(limit, policy)}: ${text(limit.value as never)}`] : [];
  const rules = [
    ...line(policy.maxPerPurchase, (v: bigint) => `at most ${formatUsd(v)} a purchase`),
    ...line(policy.perServerPerDay, (v: bigint) => `at most ${formatUsd(v)} a day (UTC) at any one server`),
    ...line(policy.perToolPerDay, (v: bigint) => `at most ${formatUsd(v)} a day (UTC) on any one item or tool`),
    ...line(policy.servers.allow, (v: string[]) => `only these servers: ${v.join(", ") || "none"}`),
    ...line(policy.servers.deny, (v: string[]) => `never these servers: ${v.join(", ")}`),
    ...line(policy.payees.allow, (v: string[]) => `only these payees: ${v.join(", ") || "none"}`),
    ...line(policy.payees.deny, (v: string[]) => `never these payees: ${v.join(", ")}`),
    ...line(policy.purchasesPerMinute, (v: number) => `at most ${v} purchase(s) a minute`),
    ...line(
      policy.identicalPerHour,
      (v: number) => `at most ${v} identical purchase(s) (same server, item and parameters) an hour`,
    ),
    ...(confirm
      ? line(policy.confirmationThreshold, (v: bigint) => `purchases of ${formatUsd(v)} or more need your confirmation`)
      : [
          "confirmation is off (ENABLE_REQUEST_ELICITATION=false): every purchase within these rules is paid without asking",
        ]),
  ];
  const budgets = budgetStanding(policy, history, now).map((u) => ({
    rule: u.name,
    budget: u.label,
    limit: unitsToUsd(u.limit),
    spent: unitsToUsd(u.spent),
    left: unitsToUsd(u.left),
  }));
  return { file: policy.file ?? null, rules, budgets };
}
