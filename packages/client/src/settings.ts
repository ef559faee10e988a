// The client's settings, from the environment the MCP host passes. Checked once at start: a bad value
// stops the client with a message naming the variable, before any wallet or network is touched.
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { loadPolicy, type EnvLimits } from "./policy/load.js";
import type { Policy } from "./policy/rules.js";
import { AmountError, BASE_MAINNET, networkFromSetting, usdToUnits, type PaymentNetwork } from "@agora-mcp/protocol";

// The tarball a site serves has that site's `{SITE_URL}/api` written in at build time (esbuild's define in the
// site's scripts/build-downloads.ts), so the client searches the site it was downloaded from. A plain workspace
// build has none and defaults to the local development site.
declare const __DEFAULT_REGISTRY_URL__: string | undefined;
export const DEFAULT_REGISTRY_URL =
  typeof __DEFAULT_REGISTRY_URL__ === "string" ? __DEFAULT_REGISTRY_URL__ : "http://localhost:3000/api";
/** Defaults a newcomer cannot hurt themselves with: a dollar a day, fifty cents a purchase. */
export const DEFAULT_DAILY_CAP_USD = "1.00";
export const DEFAULT_MAX_PER_PURCHASE_USD = "0.50";
export const DEFAULT_ELICITATION_THRESHOLD_USD = "0.01";
const PUBLIC_RPC: Record<number, string> = { 84532: "https://sepolia.base.org", 8453: "https://mainnet.base.org" };

/** Every variable the client reads, with what it means (the README and the site's guides say the same). */
export const SETTING_NAMES = [
  "AGORA_REGISTRY_URL",
  "ENABLE_REQUEST_ELICITATION",
  "ELICITATION_THRESHOLD",
  "ENABLE_UNSAFE_DIRECT_ACCESS",
  "AGORA_NETWORK",
  "AGORA_RPC_URL",
  "AGORA_DAILY_CAP",
  "AGORA_MAX_PER_PURCHASE",
  "AGORA_WALLET_FILE",
  "AGORA_POLICY_FILE",
  "AGORA_POLICY_ALLOW_RAISE",
  "AGORA_DELIVERY_RECEIPTS",
  "AGORA_BUNDLE_SETTINGS",
] as const;

/**
 * AGORA_BUNDLE_SETTINGS is written by the MCP bundle's manifest, not by a person: for each variable the bundle passes
 * from its settings form, the label the person sees there and the default the form fills in. A host passes every
 * setting, changed or not, so a variable still at the form's default is a default, and a message names the label.
 */
const bundleSettingsSchema = z.record(
  z.string().regex(/^[A-Z][A-Z0-9_]*$/),
  z.strictObject({ label: z.string().min(1).max(200), default: z.string().max(200) }),
);
type BundleSettings = z.infer<typeof bundleSettingsSchema>;

function bundleSettings(env: Env): BundleSettings {
  const raw = read(env, "AGORA_BUNDLE_SETTINGS");
  if (raw === undefined) return {};
  try {
    return bundleSettingsSchema.parse(JSON.parse(raw));
  } catch {
    throw new SettingsError(
      "AGORA_BUNDLE_SETTINGS",
      "is the MCP bundle's own description of its settings and could not be read; reinstall the bundle",
    );
  }
}

export type Settings = {
  registryUrl: string;
  elicitation: boolean;
  /** Purchases priced above this (USDC units) need the person's yes; 0 asks for every paid purchase. */
  thresholdUnits: bigint;
  directAccess: boolean;
  network: PaymentNetwork;
  rpcUrl: string;
  dailyCapUnits: bigint;
  maxPerPurchaseUnits: bigint;
  walletFile: string;
  /** Whether AGORA_WALLET_FILE named the wallet (its folder must then exist), or it is the default. */
  walletFileSet: boolean;
  /**
   * The spending policy in force (the policy file merged with the variables above; dailyCapUnits, maxPerPurchaseUnits
   * and thresholdUnits are its effective values). A buyer without one (the registry's test purchases) has the caps only.
   */
  policy?: Policy;
  /**
   * After a paid call whose payment is on chain, sign and send the registry a delivery receipt (delivered or not).
   * On unless AGORA_DELIVERY_RECEIPTS=false; a buyer built without it (the registry's own test purchases) sends none.
   */
  deliveryReceipts?: boolean;
};

export class SettingsError extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
    /** How the person knows the setting: the variable, or the bundle setting's label. */
    readonly place = variable,
  ) {
    super(`${place}: ${reason}`);
    this.name = "SettingsError";
  }
}

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const value = read(env, name)?.toLowerCase();
  if (value === undefined) return fallback;
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new SettingsError(name, `must be "true" or "false", not "${value.slice(0, 40)}"`);
}

function sameAmount(a: string, b: string): boolean {
  try {
    return usdToUnits(a) === usdToUnits(b.trim());
  } catch {
    return a === b.trim();
  }
}

/** The words for where a variable is set: its name, or the bundle setting's label. */
function placeOfVariable(bundle: BundleSettings, name: string): string {
  const label = bundle[name]?.label;
  return label ? `"${label}" in the bundle's settings` : name;
}

function dollars(env: Env, name: string, fallback: string, { allowZero }: { allowZero: boolean }): bigint {
  const value = read(env, name) ?? fallback;
  let units: bigint;
  try {
    units = usdToUnits(value);
  } catch (error) {
    if (error instanceof AmountError)
      throw new SettingsError(name, `must be an amount in US dollars such as 0.50 (${error.message})`);
    throw error;
  }
  if (!allowZero && units === 0n) throw new SettingsError(name, "must be more than 0");
  return units;
}

function httpUrl(env: Env, name: string, fallback: string | undefined): string {
  const value = read(env, name) ?? fallback;
  if (value === undefined) throw new SettingsError(name, "is required");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(name, `is not a URL: "${value.slice(0, 80)}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new SettingsError(name, "must be an http(s) URL");
  if (url.username || url.password) throw new SettingsError(name, "must not carry a user name or password");
  return value.replace(/\/+$/, "");
}

export function defaultWalletFile(home = os.homedir()): string {
  return path.join(home, ".agora", "wallet.json");
}

export function loadSettings(env: Env = process.env): Settings {
  const bundle = bundleSettings(env);
  try {
    return settingsFrom(env, bundle);
  } catch (error) {
    // From the MCP bundle, a bad value is named by the option's label in its settings form.
    if (error instanceof SettingsError && bundle[error.variable])
      throw new SettingsError(error.variable, error.reason, placeOfVariable(bundle, error.variable));
    throw error;
  }
}

function settingsFrom(env: Env, bundle: BundleSettings): Settings {
  const registryUrl = httpUrl(env, "AGORA_REGISTRY_URL", DEFAULT_REGISTRY_URL);
  const elicitation = flag(env, "ENABLE_REQUEST_ELICITATION", true);
  const thresholdUnits = dollars(env, "ELICITATION_THRESHOLD", DEFAULT_ELICITATION_THRESHOLD_USD, { allowZero: true });
  const directAccess = flag(env, "ENABLE_UNSAFE_DIRECT_ACCESS", false);
  let network: PaymentNetwork;
  try {
    network = networkFromSetting(read(env, "AGORA_NETWORK"));
  } catch (error) {
    throw new SettingsError("AGORA_NETWORK", (error as Error).message);
  }
  const rpcUrl = httpUrl(env, "AGORA_RPC_URL", PUBLIC_RPC[network.chainId]);
  // Whether the daily cap fits the maximum per purchase is the policy's to settle (loadPolicy): a default gives way.
  const dailyCapUnits = dollars(env, "AGORA_DAILY_CAP", DEFAULT_DAILY_CAP_USD, { allowZero: false });
  const maxPerPurchaseUnits = dollars(env, "AGORA_MAX_PER_PURCHASE", DEFAULT_MAX_PER_PURCHASE_USD, {
    allowZero: false,
  });
  const walletRaw = read(env, "AGORA_WALLET_FILE");
  if (walletRaw !== undefined && !path.isAbsolute(walletRaw))
    throw new SettingsError("AGORA_WALLET_FILE", "must be an absolute path");
  const walletFile = walletRaw ?? defaultWalletFile();
  const policyRaw = read(env, "AGORA_POLICY_FILE");
  if (policyRaw !== undefined && !path.isAbsolute(policyRaw))
    throw new SettingsError("AGORA_POLICY_FILE", "must be an absolute path");
  // Set by the person: named in the env, and (from a bundle) changed from the form's default.
  const setByPerson = (variable: string) => {
    const value = read(env, variable);
    const formDefault = bundle[variable]?.default;
    return value !== undefined && (formDefault === undefined || !sameAmount(value, formDefault));
  };
  const limit = (value: bigint, rule: string, variable: string) => {
    const setting = placeOfVariable(bundle, variable);
    return { value, rule, variable, setting, source: setByPerson(variable) ? setting : "default" };
  };
  const envLimits: EnvLimits = {
    day: limit(dailyCapUnits, "budgets.day", "AGORA_DAILY_CAP"),
    maxPerPurchase: limit(maxPerPurchaseUnits, "maxPerPurchase", "AGORA_MAX_PER_PURCHASE"),
    confirmationThreshold: limit(thresholdUnits, "confirmationThreshold", "ELICITATION_THRESHOLD"),
    allowRaise: flag(env, "AGORA_POLICY_ALLOW_RAISE", false),
  };
  const policy = loadPolicy(policyRaw ?? defaultPolicyFile(walletFile), policyRaw !== undefined, envLimits);
  return {
    registryUrl,
    elicitation,
    thresholdUnits: policy.confirmationThreshold.value,
    directAccess,
    network,
    rpcUrl,
    dailyCapUnits: policy.budgets.day?.value ?? dailyCapUnits,
    maxPerPurchaseUnits: policy.maxPerPurchase.value,
    walletFile,
    // The default path named outright (an MCP bundle's setting defaults to it) is still the default: its folder is made.
    walletFileSet: walletRaw !== undefined && path.resolve(walletRaw) !== defaultWalletFile(),
    policy,
    deliveryReceipts: flag(env, "AGORA_DELIVERY_RECEIPTS", true),
  };
}

/** The spending policy's default place: beside the wallet file. */
export function defaultPolicyFile(walletFile: string): string {
  return path.join(path.dirname(walletFile), "policy.json");
}

/**
 * The append-only purchase ledger, next to the wallet, one per wallet address and network: spending, caps and
 * history belong to the key that paid, so a new key in the same file (the sandbox makes one each run) starts at zero.
 */
export function ledgerFileFor(settings: Pick<Settings, "walletFile" | "network">, address: string): string {
  return path.join(
    path.dirname(settings.walletFile),
    `ledger-${networkSlug(settings.network)}-${address.toLowerCase()}.jsonl`,
  );
}

/** The ledger's name before it was per wallet: one per network, whatever key paid. */
export function legacyLedgerFile(settings: Pick<Settings, "walletFile" | "network">): string {
  return path.join(path.dirname(settings.walletFile), `ledger-${networkSlug(settings.network)}.jsonl`);
}

export function networkSlug(network: PaymentNetwork): string {
  return network === BASE_MAINNET ? "base" : "base-sepolia";
}
