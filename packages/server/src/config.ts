// What a provider declares: items with prices and handlers, the wallet that is paid, the network and the
// facilitator. Checked once at start so a typo fails loudly instead of at the first purchase.
import { EVM_ADDRESS, networkFromSetting, usdToUnits, type PaymentNetwork } from "@agora-mcp/protocol";
import { resolveHostCheck, type HostCheck, type HostCheckMode } from "./host-check.js";

/** The public testnet facilitator (x402.org); name your own for Base mainnet. */
export const DEFAULT_FACILITATOR_URL = "https://x402.org/facilitator";

export type PurchaseContext = {
  orderId: string;
  itemId: string;
  /** The wallet that paid; undefined for a free item. */
  payer?: string;
  /** The settlement transaction; undefined for a free item, and for every call on the x402 binding (it settles after). */
  transaction?: string;
  /**
   * A metered item's handler says what the call used, in dollars ("0.03" or 0.03), at most the item's price: the kit
   * settles that much of the buyer's signed maximum after the call succeeded. Not called, or 0: nothing is settled.
   * Called again, the last amount counts. Any other item throws (its price is fixed).
   */
  reportUsage: (price: number | string) => void;
};

/**
 * What the item answers. Throwing, answering an MCP error result (`{ isError: true, content }`) or answering nothing
 * (undefined, null, an empty string) is a failure: on the x402 binding it settles nothing.
 */
export type ItemHandler = (params: Record<string, string>, context: PurchaseContext) => unknown | Promise<unknown>;

/** A zod schema (3 or 4), or anything with its `safeParse`: the item's parameters are checked by it before any payment. */
export type ParamsSchema = {
  safeParse: (
    value: unknown,
  ) =>
    | { success: true }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
};

export type ItemDefinition = {
  id: string;
  name: string;
  description: string;
  /** Dollars per call ("0.02" or 0.02); 0 makes the item free (delivered without any payment). */
  price: number | string;
  /** Parameter name → a hint for the buyer ("Example: Lisbon"). Every named parameter is required. */
  params?: Record<string, string>;
  handler: ItemHandler;
  /**
   * Checks the parameters (an object of strings) before any payment is verified, on both ways of buying: bad input
   * is refused and costs nothing.
   */
  paramsSchema?: ParamsSchema;
  /** The handler runs after the purchase answers: the buyer gets a job id and collects the result later. */
  async?: { checkAfterSeconds: number };
  /**
   * Metered: `price` is the most one call may cost, and the handler reports what the call used
   * (`context.reportUsage`). Sold through the item's x402 tool with x402's `upto` scheme: the buyer signs the maximum,
   * the kit settles the reported amount after the call succeeded (never more than the maximum; 0 settles nothing).
   * make-purchase does not sell it (its payments are for a fixed price). Not for asynchronous items.
   */
  metered?: boolean;
  /**
   * Sold through payment channels (x402's `batch-settlement` scheme), for many small calls: a buyer deposits once
   * (at least `minDeposit` dollars, default ten calls' worth) and pays each call with a voucher that moves nothing on
   * chain; the kit claims the vouchers of every channel in one transaction every `claimEvery` paid calls (default 50)
   * or `claimIntervalSeconds` (default 300), and when the server closes, then settles them to `walletAddress`. A voucher
   * counts only after the call succeeded. Sold through the item's x402 tool only; not metered, not asynchronous.
   * `true` takes the defaults.
   */
  channel?: true | { claimEvery?: number; claimIntervalSeconds?: number; minDeposit?: number | string };
  /**
   * The tool that sells the item through the standard x402 binding for MCP. Every paid item has one, named after
   * its id (characters a tool name cannot hold become "_") unless named here; false sells it through
   * make-purchase only, and then x402 clients and Agora's discovery cannot see it. Free items have none.
   */
  x402Tool?: string | false;
};

export type MonetizedServerOptions = {
  name: string;
  version?: string;
  /** The address that receives payments. */
  walletAddress: string;
  /** base-sepolia (default) or base; mainnet only when named. */
  network?: string;
  facilitatorUrl?: string;
  /** Bound on each facilitator call (verify, settle), in ms. */
  facilitatorTimeoutMs?: number;
  items: ItemDefinition[];
  /** The public URL of the server's MCP endpoint, used to name what a payment buys. */
  publicUrl?: string;
  /** Called with each delivered or refused purchase (for the provider's own records). */
  onPurchase?: (event: PurchaseEvent) => void;
  /**
   * A make-purchase call whose payment settled before the item failed: the buyer paid and got an error quoting the
   * order id. Refund here if you wish (send `units` back to `payer`); the kit moves no money itself.
   */
  onChargedFailure?: (event: ChargedFailure) => void | Promise<void>;
  /**
   * An x402 call whose item succeeded but whose payment did not settle afterwards (the facilitator refused or did not
   * answer): the buyer was told nothing was charged, and the result was withheld.
   */
  onSettlementFailed?: (event: SettlementFailure) => void | Promise<void>;
  /**
   * Where the kit writes what buyers are never shown: a facilitator's own words when it refuses or fails
   * (one line, at most 300 characters). Default: console.error.
   */
  log?: (line: string) => void;
  /** One `log` line per purchase (tool, price, payer, outcome); default true, false keeps the log to refusals. */
  logPurchases?: boolean;
  /**
   * DNS-rebinding protection: check `Host` and `Origin`. "auto" (default) checks every request that arrives
   * on a loopback address (a server on 127.0.0.1, or one behind a proxy on the same machine); true checks
   * every request; false none.
   */
  dnsRebindingProtection?: HostCheckMode;
  /** Host names (no scheme, no port) the server answers to besides localhost, 127.0.0.1, [::1] and publicUrl's. */
  allowedHosts?: string[];
  /** Browser origins (https://app.example.com) allowed besides those on an allowed host. */
  allowedOrigins?: string[];
};

/** A failure after the payment settled (make-purchase): what the buyer paid for and did not get. */
export type ChargedFailure = {
  orderId: string;
  itemId: string;
  units: string;
  payer: string;
  transaction: string;
  reason: string;
};
/** A delivery whose settlement then failed (the x402 binding): nothing was charged, the result was withheld. */
export type SettlementFailure = { orderId: string; itemId: string; units: string; payer: string; reason: string };

export type PurchaseEvent = {
  orderId: string;
  itemId: string;
  units: string;
  /** `unsettled`: the item ran, its settlement failed, so the result was withheld and nothing charged. */
  outcome: "delivered" | "pending" | "refused" | "failed" | "unsettled";
  /** For a failure: whether the buyer's payment had settled (make-purchase settles first; x402 only after success). */
  charged?: boolean;
  reason?: string;
  transaction?: string;
  payer?: string;
  /** Where the time went, in ms: the facilitator's verify and settle (broadcast and receipt), the handler. */
  timings?: { verifyMs?: number; settleMs?: number; handlerMs?: number };
};

/** A channel item's terms, resolved: claim schedule and the least deposit, in token units. */
export type ChannelTerms = { claimEvery: number; claimIntervalSeconds: number; minDeposit?: bigint };

/** An item as the kit sells it: its definition with the price in token units and its parameters resolved. */
export type SaleItem = Omit<ItemDefinition, "price" | "x402Tool" | "channel"> & {
  units: bigint;
  params: Record<string, string>;
  x402Tool?: string;
  channel?: ChannelTerms;
};

export type ResolvedOptions = {
  name: string;
  version: string;
  walletAddress: `0x${string}`;
  network: PaymentNetwork;
  facilitatorUrl: string;
  facilitatorTimeoutMs: number;
  items: SaleItem[];
  publicUrl?: string;
  onPurchase?: (event: PurchaseEvent) => void;
  onChargedFailure?: (event: ChargedFailure) => void | Promise<void>;
  onSettlementFailed?: (event: SettlementFailure) => void | Promise<void>;
  log: (line: string) => void;
  logPurchases: boolean;
  hostCheck: HostCheck;
};

const ITEM_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const RESERVED_TOOLS = new Set(["price-listing", "payment-methods", "make-purchase", "job-status"]);

/** An item id as a tool name: ids may hold "." and run to 100 characters, tool names may not. */
function defaultToolName(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

/**
 * A mistake in what the provider declared. Its stack is its one line: the server has not started, and the place
 * to look is the setting the message names, not the kit's insides.
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
    this.stack = `${this.name}: ${message}`;
  }
}

function walletAddressProblem(value: unknown): string {
  const fix =
    "set the address that receives payments (the guides keep it in .env as SERVER_WALLET_ADDRESS and start with node --env-file=.env)";
  if (typeof value !== "string" || value.trim() === "")
    return `walletAddress must be a 0x address of 40 hex digits, and it is empty: ${fix}`;
  return `walletAddress must be a 0x address of 40 hex digits, not "${value.slice(0, 60)}": ${fix}`;
}

function channelTerms(item: ItemDefinition, units: bigint, x402Tool: string | undefined): ChannelTerms {
  if (units === 0n || !x402Tool)
    throw new ConfigError(
      `Item "${item.id}" is sold through channels: give it a price above 0 (per call) and keep its x402 tool`,
    );
  if (item.metered || item.async)
    throw new ConfigError(`Item "${item.id}": a channel item cannot be metered or asynchronous`);
  const given = item.channel === true ? {} : item.channel!;
  const claimEvery = given.claimEvery ?? 50;
  const claimIntervalSeconds = given.claimIntervalSeconds ?? 300;
  if (!Number.isInteger(claimEvery) || claimEvery < 1)
    throw new ConfigError(`Item "${item.id}": channel.claimEvery must be a whole number of calls, at least 1`);
  if (!(claimIntervalSeconds >= 1))
    throw new ConfigError(`Item "${item.id}": channel.claimIntervalSeconds must be at least 1`);
  const minDeposit = given.minDeposit === undefined ? undefined : usdToUnits(given.minDeposit);
  if (minDeposit !== undefined && minDeposit < units)
    throw new ConfigError(`Item "${item.id}": channel.minDeposit must cover at least one call`);
  return { claimEvery, claimIntervalSeconds, ...(minDeposit !== undefined ? { minDeposit } : {}) };
}

export function resolveOptions(options: MonetizedServerOptions): ResolvedOptions {
  if (!EVM_ADDRESS.test(options.walletAddress)) throw new ConfigError(walletAddressProblem(options.walletAddress));
  const network = networkFromSetting(options.network);
  const facilitatorUrl = (options.facilitatorUrl ?? DEFAULT_FACILITATOR_URL).replace(/\/+$/, "");
  if (!/^https?:\/\//.test(facilitatorUrl)) throw new Error("facilitatorUrl must be an http(s) URL");
  if (!network.testnet && !options.facilitatorUrl)
    throw new Error("Base mainnet needs a facilitatorUrl of your choice");
  const ids = new Set<string>();
  const tools = new Set<string>();
  const items = options.items.map((item): SaleItem => {
    if (!ITEM_ID.test(item.id)) throw new Error(`Item id "${item.id}" must be letters, digits, . _ or - (at most 100)`);
    if (ids.has(item.id)) throw new Error(`Item id "${item.id}" is declared twice`);
    ids.add(item.id);
    const units = usdToUnits(item.price);
    if (typeof item.x402Tool === "string" && units === 0n)
      throw new Error(`Item "${item.id}" is free: x402 cannot carry a zero amount`);
    const x402Tool = units === 0n || item.x402Tool === false ? undefined : (item.x402Tool ?? defaultToolName(item.id));
    if (x402Tool !== undefined) {
      if (!TOOL_NAME.test(x402Tool) || RESERVED_TOOLS.has(x402Tool) || tools.has(x402Tool)) {
        const named =
          item.x402Tool === undefined ? ` (named after item "${item.id}"; set x402Tool to another name)` : "";
        throw new Error(`x402Tool "${x402Tool}" must be a unique tool name other than the MonetizedMCP tools${named}`);
      }
      tools.add(x402Tool);
    }
    if (item.async && units === 0n)
      throw new Error(`Item "${item.id}": an asynchronous item must be paid (its result goes to the wallet that paid)`);
    if (item.async && !(item.async.checkAfterSeconds > 0))
      throw new Error(`Item "${item.id}": async.checkAfterSeconds must be positive`);
    if (item.metered && (units === 0n || !x402Tool))
      throw new ConfigError(
        `Item "${item.id}" is metered: give it a price above 0 (the most a call may cost) and keep its x402 tool`,
      );
    if (item.metered && item.async)
      throw new ConfigError(`Item "${item.id}": a metered item cannot be asynchronous yet`);
    const channel = item.channel ? channelTerms(item, units, x402Tool) : undefined;
    const { price: _price, x402Tool: _tool, channel: _channel, ...rest } = item;
    return {
      ...rest,
      units,
      params: item.params ?? {},
      ...(x402Tool ? { x402Tool } : {}),
      ...(channel ? { channel } : {}),
    };
  });
  return {
    name: options.name,
    version: options.version ?? "1.0.0",
    walletAddress: options.walletAddress as `0x${string}`,
    network,
    facilitatorUrl,
    facilitatorTimeoutMs: options.facilitatorTimeoutMs ?? 20_000,
    items,
    publicUrl: options.publicUrl,
    onPurchase: options.onPurchase,
    onChargedFailure: options.onChargedFailure,
    onSettlementFailed: options.onSettlementFailed,
    log: options.log ?? ((line) => console.error(`[@agora-mcp/server] ${line}`)),
    logPurchases: options.logPurchases ?? true,
    hostCheck: resolveHostCheck(options, options.publicUrl),
  };
}
