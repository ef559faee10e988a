// The spending policy as the client enforces it: every limit in USDC's smallest unit, each rule knowing where it
// was set (the policy file, an environment variable or the default), so a refusal can name it.
export type Window = "hour" | "day" | "week" | "month";
export const WINDOWS: readonly Window[] = ["hour", "day", "week", "month"];

/**
 * Where a rule was set: the policy file's path, the place a person set a variable (its name, or the MCP bundle
 * setting's label), or "default". `note` says how a default gave way to a limit the person set.
 */
export type Limit<T> = { value: T; rule: string; source: string; note?: string };

export type Policy = {
  /** The policy file read at start, when there was one. */
  file?: string;
  budgets: Partial<Record<Window, Limit<bigint>>>;
  maxPerPurchase: Limit<bigint>;
  perServerPerDay?: Limit<bigint>;
  perToolPerDay?: Limit<bigint>;
  payees: { allow?: Limit<string[]>; deny?: Limit<string[]> };
  servers: { allow?: Limit<string[]>; deny?: Limit<string[]> };
  purchasesPerMinute?: Limit<number>;
  identicalPerHour?: Limit<number>;
  /**
   * The least share of its purchases (30 days: the registry's test purchases and buyers' signed receipts) a server
   * must have delivered (0 to 1); a server with no evidence (unlisted, or neither test-bought nor receipted) is refused too.
   */
  minDeliveryRate?: Limit<number>;
  /** The most one payment channel may hold (its deposits); unset, maxPerPurchase bounds a channel too. */
  maxChannelDeposit?: Limit<bigint>;
  /** Purchases priced at or above this need the person's yes (0: every paid purchase). */
  confirmationThreshold: Limit<bigint>;
};

/** The rule's name as a person looks it up: the file's key, and where it was set when not the file. */
export function ruleName(
  limit: Pick<Limit<unknown>, "rule" | "source" | "note">,
  policy: Pick<Policy, "file">,
): string {
  if (limit.source === policy.file) return `${limit.rule} (policy file ${limit.source})`;
  if (limit.source === "default") return `${limit.rule} (the default${limit.note ? `, ${limit.note}` : ""})`;
  return `${limit.rule} (${limit.source})`;
}

/**
 * Where a person set a limit, in the words of that place: the file's key and the file, or the variable (or bundle
 * setting) itself, so a message names what they would go back and change.
 */
export function placeOf(limit: Pick<Limit<unknown>, "rule" | "source">, policy: Pick<Policy, "file">): string {
  if (policy.file !== undefined && limit.source === policy.file) return `${limit.rule} in ${limit.source}`;
  if (limit.source === "default") return `the default ${limit.rule}`;
  return limit.source;
}

/** When the UTC calendar window holding `now` began: the hour, the day, the week (from Monday) or the month. */
export function windowStart(window: Window, now: Date): Date {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  if (window === "hour") return new Date(Date.UTC(y, m, d, now.getUTCHours()));
  if (window === "day") return new Date(Date.UTC(y, m, d));
  if (window === "month") return new Date(Date.UTC(y, m, 1));
  const sinceMonday = (now.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(y, m, d - sinceMonday));
}

export const WINDOW_WORDS: Record<Window, { per: string; left: string }> = {
  hour: { per: "an hour (UTC clock hour)", left: "this hour" },
  day: { per: "a day (UTC)", left: "today (UTC)" },
  week: { per: "a week (UTC, from Monday)", left: "this week (UTC, from Monday)" },
  month: { per: "a month (UTC calendar month)", left: "this month (UTC)" },
};

/** The policy of a buyer given caps only (the registry's test purchases): a daily budget, a maximum and the threshold. */
export function capsPolicy(caps: {
  dailyCapUnits: bigint;
  maxPerPurchaseUnits: bigint;
  thresholdUnits: bigint;
}): Policy {
  const set = <T>(value: T, rule: string): Limit<T> => ({ value, rule, source: "the buyer's settings" });
  return {
    budgets: { day: set(caps.dailyCapUnits, "budgets.day") },
    maxPerPurchase: set(caps.maxPerPurchaseUnits, "maxPerPurchase"),
    payees: {},
    servers: {},
    confirmationThreshold: set(caps.thresholdUnits, "confirmationThreshold"),
  };
}
