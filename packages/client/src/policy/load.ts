// The spending policy file (JSON, next to the wallet unless AGORA_POLICY_FILE names another), checked with zod at
// start: anything wrong stops the client with a message naming the rule. The simple environment variables still
// work; a rule set in both places holds at the stricter (lower) value.
import fs from "node:fs";
import { z } from "zod";
import { AmountError, formatUsd, usdToUnits } from "@agora-mcp/protocol";
import { FileRefused, readOwnFile } from "../file-trust.js";
import { jsonErrorPlace, jsonErrorReason } from "../json-place.js";
import { onBothSides } from "./names.js";
import { placeOf, WINDOWS, type Limit, type Policy, type Window } from "./rules.js";

export class PolicyError extends Error {
  constructor(
    readonly file: string,
    readonly rule: string,
    message: string,
  ) {
    super(`${file}: rule ${rule}: ${message}`);
    this.name = "PolicyError";
  }
}

const amount = (allowZero: boolean) =>
  z
    .union([z.string(), z.number()], { error: 'must be an amount in US dollars such as "0.50"' })
    .transform((value, ctx) => {
      try {
        const units = usdToUnits(value);
        if (!allowZero && units === 0n) ctx.addIssue({ code: "custom", message: "must be more than 0" });
        return units;
      } catch (error) {
        if (!(error instanceof AmountError)) throw error;
        ctx.addIssue({ code: "custom", message: `must be an amount in US dollars such as "0.50" (${error.message})` });
        return z.NEVER;
      }
    });
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a wallet address: 0x and 40 hex digits");
const count = z
  .number({ error: "must be a whole number" })
  .int("must be a whole number")
  .positive("must be at least 1");
const lists = <T extends z.ZodType>(entry: T) =>
  z.strictObject({ allow: z.array(entry).optional(), deny: z.array(entry).optional() }).optional();

/** The file's shape: every key optional, nothing else allowed (a misspelt rule must not silently do nothing). */
export const policyFileSchema = z.strictObject({
  $schema: z.string().optional(),
  budgets: z
    .strictObject({
      hour: amount(false).optional(),
      day: amount(false).optional(),
      week: amount(false).optional(),
      month: amount(false).optional(),
    })
    .optional(),
  maxPerPurchase: amount(false).optional(),
  perServerPerDay: amount(false).optional(),
  perToolPerDay: amount(false).optional(),
  payees: lists(address),
  servers: lists(z.string().trim().min(1, "must not be empty").max(500)),
  purchasesPerMinute: count.optional(),
  identicalPerHour: count.optional(),
  minDeliveryRate: z
    .number({ error: "must be a number from 0 to 1" })
    .min(0, "must be from 0 to 1")
    .max(1, "must be from 0 to 1")
    .optional(),
  maxChannelDeposit: amount(false).optional(),
  confirmationThreshold: amount(true).optional(),
});
export type PolicyFile = z.output<typeof policyFileSchema>;

/** A policy is a few lines of JSON; anything near this size is the wrong file. */
export const POLICY_FILE_MAX_BYTES = 64 * 1024;

/** What a value is, in a person's words (for "must be a list, not text"). */
function kindOf(value: unknown): string {
  if (Array.isArray(value)) return "a list";
  if (value === null) return "null";
  if (typeof value === "string") return `text ("${value.slice(0, 40)}")`;
  if (typeof value === "object") return "an object";
  return `${typeof value === "boolean" ? "true/false" : typeof value} (${String(value)})`;
}

const SHAPES: Record<string, string> = {
  array: 'a list in [ ], such as ["weather-now"]',
  object: "an object in { }",
  string: "text in quotes",
  number: "a number",
};

/** The rules a place in the file may hold, for a misspelt key: the top level's, or those of budgets, servers or payees. */
function knownKeys(at: string): string[] {
  if (at === "") return Object.keys(policyFileSchema.shape).filter((k) => k !== "$schema");
  if (at === "budgets") return ["hour", "day", "week", "month"];
  return ["allow", "deny"];
}

function valueAt(raw: unknown, path: PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (value, key) =>
      value !== null && typeof value === "object" ? (value as Record<PropertyKey, unknown>)[key] : undefined,
    raw,
  );
}

function parseFile(file: string): PolicyFile {
  let raw: unknown;
  let text = "";
  try {
    text = readOwnFile(file, POLICY_FILE_MAX_BYTES);
    raw = JSON.parse(text);
  } catch (error) {
    if (error instanceof FileRefused) throw new PolicyError(file, "(file)", error.reason);
    if (error instanceof SyntaxError)
      throw new PolicyError(
        file,
        "(file)",
        `is not valid JSON at ${jsonErrorPlace(text, error)} (${jsonErrorReason(error)})`,
      );
    throw error;
  }
  const parsed = policyFileSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const at = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    const rule = [at, issue.keys[0]].filter(Boolean).join(".");
    throw new PolicyError(
      file,
      rule,
      `is not a rule this client knows; ${at ? `${at} holds` : "the rules are"} ${knownKeys(at).join(", ")} (the Spending policy section of the client's README.md says what each does)`,
    );
  }
  if (!at) throw new PolicyError(file, "(file)", `must be a JSON object of rules in { }, not ${kindOf(raw)}`);
  // zod's own words ("Invalid input: expected array, received string") say what a parser saw, not what to write.
  if (issue.code === "invalid_type" && SHAPES[issue.expected])
    throw new PolicyError(file, at, `must be ${SHAPES[issue.expected]}, not ${kindOf(valueAt(raw, issue.path))}`);
  throw new PolicyError(file, at, issue.message);
}

/**
 * A limit an environment variable sets: `source` is where the person set it (the variable's name, or the MCP bundle
 * setting's label), or "default" when they did not; `setting` is where they would set it.
 */
export type EnvLimit = Limit<bigint> & { variable: string; setting: string };

/** Two limits the person set that no purchase could satisfy together: refused, naming both where they were set. */
export class LimitConflict extends Error {
  constructor(
    readonly places: [string, string],
    message: string,
  ) {
    super(message);
    this.name = "LimitConflict";
  }
}

/**
 * The limits the environment variables set (AGORA_DAILY_CAP, AGORA_MAX_PER_PURCHASE, ELICITATION_THRESHOLD), with
 * defaults, and whether the person let the policy file raise a default (AGORA_POLICY_ALLOW_RAISE).
 */
export type EnvLimits = {
  day: EnvLimit;
  maxPerPurchase: EnvLimit;
  confirmationThreshold: EnvLimit;
  allowRaise: boolean;
};

const lower = (a: Limit<bigint>, b: Limit<bigint> | undefined): Limit<bigint> =>
  b === undefined || a.value <= b.value ? a : b;

/**
 * A file's value above a built-in default, without the person's opt-in. The file sits where other programs may
 * write, the host's config is what the person wrote themselves: only the latter may loosen the defaults.
 */
function raiseRefusal(file: string, rule: string, value: bigint, builtIn: EnvLimit): PolicyError {
  return new PolicyError(
    file,
    rule,
    `${formatUsd(value)} is above the built-in limit of ${formatUsd(builtIn.value)}; a policy file may lower this limit but not raise it on its own. To raise it, set ${builtIn.setting} (or AGORA_POLICY_ALLOW_RAISE=true, to let this file's value stand) in the env of your MCP host's config for this client`,
  );
}

/** The policy in force: the file's rules (when `file` exists or was named) merged with the environment's. */
export function loadPolicy(file: string, named: boolean, env: EnvLimits): Policy {
  const exists = fs.existsSync(file);
  if (named && !exists) throw new PolicyError(file, "(file)", "does not exist (AGORA_POLICY_FILE names it)");
  const read = exists ? parseFile(file) : {};
  const from = <T>(rule: string, value: T | undefined): Limit<T> | undefined =>
    value === undefined ? undefined : { value, rule, source: file };
  // A variable someone set and the file's value both hold (the lower wins). A default gives way to a file that
  // lowers it, and to one that raises it only when the person opted in.
  const merge = (rule: string, fileValue: bigint | undefined, envLimit: EnvLimit): Limit<bigint> => {
    const limit: Limit<bigint> = { value: envLimit.value, rule: envLimit.rule, source: envLimit.source };
    const fromFile = from(rule, fileValue);
    if (!fromFile) return limit;
    if (envLimit.source !== "default") return lower({ ...limit, rule }, fromFile);
    if (fromFile.value > envLimit.value && !env.allowRaise) throw raiseRefusal(file, rule, fromFile.value, envLimit);
    return fromFile;
  };
  const budgets: Partial<Record<Window, Limit<bigint>>> = {};
  for (const window of WINDOWS) {
    const limit =
      window === "day"
        ? merge("budgets.day", read.budgets?.day, env.day)
        : from(`budgets.${window}`, read.budgets?.[window]);
    if (limit) budgets[window] = limit;
  }
  const policy: Policy = {
    ...(exists ? { file } : {}),
    budgets,
    maxPerPurchase: merge("maxPerPurchase", read.maxPerPurchase, env.maxPerPurchase),
    perServerPerDay: from("perServerPerDay", read.perServerPerDay),
    perToolPerDay: from("perToolPerDay", read.perToolPerDay),
    payees: { allow: from("payees.allow", read.payees?.allow), deny: from("payees.deny", read.payees?.deny) },
    servers: { allow: from("servers.allow", read.servers?.allow), deny: from("servers.deny", read.servers?.deny) },
    purchasesPerMinute: from("purchasesPerMinute", read.purchasesPerMinute),
    identicalPerHour: from("identicalPerHour", read.identicalPerHour),
    minDeliveryRate: from("minDeliveryRate", read.minDeliveryRate),
    maxChannelDeposit: from("maxChannelDeposit", read.maxChannelDeposit),
    confirmationThreshold: merge("confirmationThreshold", read.confirmationThreshold, env.confirmationThreshold),
  };
  checkLists(policy, file);
  fitDefaults(policy);
  return policy;
}

/**
 * The maximum per purchase against every budget. A default gives way to what the person set: a default maximum
 * drops to their smallest budget ("$0.30 a day" must not stop the wallet because the default maximum is $0.50), and
 * a default daily budget rises to the maximum they set. Only a budget and a maximum both set by the person, which no
 * purchase at that maximum could pass, are refused, naming both where they were set.
 */
function fitDefaults(policy: Policy): void {
  const budgets = (): Limit<bigint>[] =>
    [...Object.values(policy.budgets), policy.perServerPerDay, policy.perToolPerDay].filter(
      (b): b is Limit<bigint> => !!b,
    );
  const set = budgets().filter((b) => b.source !== "default");
  const tightest = set.reduce<Limit<bigint> | undefined>(
    (low, b) => (low === undefined || b.value < low.value ? b : low),
    undefined,
  );
  const max = policy.maxPerPurchase;
  if (max.source === "default" && tightest && tightest.value < max.value) {
    policy.maxPerPurchase = { ...max, value: tightest.value, note: `lowered to ${placeOf(tightest, policy)}` };
    return;
  }
  if (max.source === "default") return;
  for (const window of WINDOWS) {
    const budget = policy.budgets[window];
    if (budget?.source === "default" && budget.value < max.value)
      policy.budgets[window] = { ...budget, value: max.value, note: `raised to ${placeOf(max, policy)}` };
  }
  if (tightest && tightest.value < max.value) {
    const budget = placeOf(tightest, policy);
    const most = placeOf(max, policy);
    throw new LimitConflict(
      [budget, most],
      `${budget} (${formatUsd(tightest.value)}) is less than ${most} (${formatUsd(max.value)}): no purchase at that maximum could pass the budget. Lower ${most} to at most ${formatUsd(tightest.value)}, or raise ${budget}.`,
    );
  }
}

/** A payee or server both allowed and refused. */
function checkLists(policy: Policy, file: string): void {
  for (const kind of ["payees", "servers"] as const) {
    const both = onBothSides(kind, policy[kind].allow?.value ?? [], policy[kind].deny?.value ?? []);
    if (both)
      throw new PolicyError(file, `${kind}.deny`, `${both} is on both ${kind}.allow and ${kind}.deny; keep it on one`);
  }
}
