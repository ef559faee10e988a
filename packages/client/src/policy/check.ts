// One purchase against every rule of the policy, given the wallet's history: the first rule it breaks (named, with
// its limit and what is left), or the budgets it would use. Pure: the ledger runs it under its lock, so two buyers
// at once see each other's reservations.
import { deliveryRate, formatUsd, type DeliveryEvidence } from "@agora-mcp/protocol";
import { SPENT, type LedgerEntry, type LedgerStatus } from "../ledger.js";
import { payeeListed, serverListed } from "./names.js";
import { ruleName, windowStart, WINDOW_WORDS, WINDOWS, type Limit, type Policy, type Window } from "./rules.js";

/** What the policy needs to know of a purchase. `names` are what a server list may name it by (slug, name, URL, host). */
/**
 * `delivery`: the registry's 30-day delivery evidence for the server (null: the registry has none, or the server is
 * not listed).
 */
export type PolicyRequest = {
  server: string;
  serverUrl: string;
  names: string[];
  item: string;
  params: string;
  units: bigint;
  payTo: string;
  delivery?: DeliveryEvidence | null;
};

export type PolicyRefusal = { rule: string; message: string };
/** A budget this purchase draws on: its limit, what was spent of it, and what is left before this purchase. */
export type BudgetUse = { rule: string; name: string; label: string; limit: bigint; spent: bigint; left: bigint };
export type PolicyVerdict = { ok: true; uses: BudgetUse[] } | { ok: false; refusal: PolicyRefusal };

/** Attempts that count towards the purchase-rate rules: everything that got as far as a reservation. */
const ATTEMPTED = (status: LedgerStatus) => status !== "declined" && status !== "free";

const inSince = (a: LedgerEntry, since: Date) => Date.parse(a.time) >= since.getTime();
const sum = (attempts: LedgerEntry[]) => attempts.reduce((total, a) => total + BigInt(a.units), 0n);
const serverOf = (a: Pick<LedgerEntry, "serverUrl" | "server">) => a.serverUrl ?? a.server;

/** The budgets the policy holds, each with what was spent of it in its window now. */
export function budgetStanding(
  policy: Policy,
  history: LedgerEntry[],
  now: Date,
  request?: Pick<PolicyRequest, "serverUrl" | "server" | "item">,
): BudgetUse[] {
  const spent = history.filter((a) => SPENT.has(a.status));
  const day = windowStart("day", now);
  const standing = (limit: Limit<bigint>, label: string, counted: LedgerEntry[]): BudgetUse => {
    const total = sum(counted);
    return {
      rule: limit.rule,
      name: ruleName(limit, policy),
      label,
      limit: limit.value,
      spent: total,
      left: total >= limit.value ? 0n : limit.value - total,
    };
  };
  const uses = WINDOWS.flatMap((w: Window) => {
    const limit = policy.budgets[w];
    return limit
      ? [
          standing(
            limit,
            `${formatUsd(limit.value)} ${WINDOW_WORDS[w].per}`,
            spent.filter((a) => inSince(a, windowStart(w, now))),
          ),
        ]
      : [];
  });
  if (request && policy.perServerPerDay) {
    const today = spent.filter((a) => inSince(a, day) && serverOf(a) === request.serverUrl);
    uses.push(
      standing(policy.perServerPerDay, `${formatUsd(policy.perServerPerDay.value)} a day at ${request.server}`, today),
    );
  }
  if (request && policy.perToolPerDay) {
    const today = spent.filter((a) => inSince(a, day) && serverOf(a) === request.serverUrl && a.item === request.item);
    uses.push(
      standing(policy.perToolPerDay, `${formatUsd(policy.perToolPerDay.value)} a day on "${request.item}"`, today),
    );
  }
  return uses;
}

function listRefusal(policy: Policy, request: PolicyRequest): PolicyRefusal | undefined {
  const { servers, payees } = policy;
  const refuse = (limit: Limit<string[]>, why: string) => ({
    rule: limit.rule,
    message: `Refused by the spending policy, rule ${ruleName(limit, policy)}: ${why}.`,
  });
  const denied = servers.deny && serverListed(servers.deny.value, request.names);
  if (servers.deny && denied !== undefined)
    return refuse(servers.deny, `${request.server} is on the deny-list (as "${denied}")`);
  if (servers.allow && serverListed(servers.allow.value, request.names) === undefined)
    return refuse(
      servers.allow,
      `${request.server} is not on the allow-list (${servers.allow.value.join(", ") || "empty"})`,
    );
  if (payees.deny && payeeListed(payees.deny.value, request.payTo) !== undefined)
    return refuse(payees.deny, `the payee ${request.payTo} is on the deny-list`);
  if (payees.allow && payeeListed(payees.allow.value, request.payTo) === undefined)
    return refuse(payees.allow, `the payee ${request.payTo} is not on the allow-list`);
  return undefined;
}

/** The delivery rule: a server below the least delivery rate, or with no evidence of delivering at all. */
function deliveryRefusal(policy: Policy, request: PolicyRequest): PolicyRefusal | undefined {
  const min = policy.minDeliveryRate;
  if (!min) return undefined;
  const rule = `Refused by the spending policy, rule ${ruleName(min, policy)}`;
  const rate = deliveryRate(request.delivery);
  if (rate === null)
    return {
      rule: min.rule,
      message: `${rule}: the registry has no evidence that ${request.server} delivers (no test purchases or buyers' receipts in 30 days).`,
    };
  if (rate < min.value) {
    const d = request.delivery!;
    const total = d.delivered + d.failedUncharged + d.failedCharged;
    return {
      rule: min.rule,
      message: `${rule}: ${request.server} delivered ${d.delivered} of ${total} purchases in 30 days (${Math.floor(rate * 100)}%; the registry's test purchases and buyers' signed receipts), below the ${Math.round(min.value * 100)}% required.`,
    };
  }
  return undefined;
}

function rateRefusal(
  policy: Policy,
  history: LedgerEntry[],
  request: PolicyRequest,
  now: Date,
): PolicyRefusal | undefined {
  const attempts = history.filter((a) => ATTEMPTED(a.status));
  const { purchasesPerMinute: perMinute, identicalPerHour: identical } = policy;
  if (perMinute) {
    const lastMinute = attempts.filter((a) => inSince(a, new Date(now.getTime() - 60_000))).length;
    if (lastMinute >= perMinute.value) {
      return {
        rule: perMinute.rule,
        message: `Refused by the spending policy, rule ${ruleName(perMinute, policy)}: at most ${perMinute.value} purchase(s) a minute; ${lastMinute} in the last minute, 0 left. Try again in a minute.`,
      };
    }
  }
  if (identical) {
    const same = attempts.filter(
      (a) =>
        inSince(a, new Date(now.getTime() - 3_600_000)) &&
        serverOf(a) === request.serverUrl &&
        a.item === request.item &&
        a.params === request.params,
    ).length;
    if (same >= identical.value) {
      return {
        rule: identical.rule,
        message: `Refused by the spending policy, rule ${ruleName(identical, policy)}: at most ${identical.value} identical purchase(s) (same server, item and parameters) an hour; ${same} in the last hour, 0 left.`,
      };
    }
  }
  return undefined;
}

/** Every rule, in order: lists, the maximum per purchase, the purchase rates, then each budget. */
export function checkPolicy(
  policy: Policy,
  history: LedgerEntry[],
  request: PolicyRequest,
  now = new Date(),
): PolicyVerdict {
  const listed = listRefusal(policy, request) ?? deliveryRefusal(policy, request);
  if (listed) return { ok: false, refusal: listed };
  const price = formatUsd(request.units);
  const max = policy.maxPerPurchase;
  if (request.units > max.value) {
    return {
      ok: false,
      refusal: {
        rule: max.rule,
        message: `Refused by the spending policy, rule ${ruleName(max, policy)}: "${request.item}" costs ${price}, above the maximum of ${formatUsd(max.value)} a purchase.`,
      },
    };
  }
  const rated = rateRefusal(policy, history, request, now);
  if (rated) return { ok: false, refusal: rated };
  const uses = budgetStanding(policy, history, now, request);
  const over = uses.find((u) => request.units > u.left);
  if (over) {
    return {
      ok: false,
      refusal: {
        rule: over.rule,
        message: `Refused by the spending policy, rule ${over.name}: "${request.item}" costs ${price}, but the budget of ${over.label} has ${formatUsd(over.left)} left (${formatUsd(over.spent)} spent).`,
      },
    };
  }
  return { ok: true, uses };
}

/** "today's budget: $0.30 of $0.70 left", one budget a line, for the person asked to confirm. */
export function describeUses(uses: BudgetUse[], units: bigint): string {
  if (!uses.length) return "";
  return `It uses ${uses.map((u) => `${formatUsd(units)} of the ${formatUsd(u.left)} left in the budget of ${u.label} (${u.name})`).join("; ")}.`;
}
