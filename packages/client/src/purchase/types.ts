// What a purchase takes and gives, and what its steps hand each other (quote → free, or policy check →
// confirmation → reservation → sign → receipt).
import type { PaidStyle, PaymentAsk, PaymentRequirementsV1, PaymentRequirementsV2 } from "@agora-mcp/protocol";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { InputRequiredResult } from "@modelcontextprotocol/server";
import type { ChainReader } from "../chain.js";
import type { Asker, Confirmations } from "../confirm.js";
import type { ConnectionOptions } from "../connections.js";
import type { PurchaseLedger } from "../ledger.js";
import type { ResolvedServer } from "../servers.js";
import type { Settings } from "../settings.js";
import type { Wallet } from "../wallet.js";

export type PurchaseInput = {
  server: string;
  item: string;
  params?: Record<string, unknown>;
  confirmationId?: string;
  maxPriceUsd?: string;
  /**
   * The exact terms the buyer already knows (the registry's latest check): a server now asking another price or
   * payee is refused as drift before anything is signed.
   */
  expectTerms?: { units: string; payTo: string };
  /**
   * The caller knows `item` is a tool paid per call over x402 (the registry's latest check read it so; the site's
   * test purchases): it is called unpaid for its price even when its tools/list entry does not say it is paid.
   * Not offered to agents: a tool that may be free is never called without its owner's word that it is paid.
   */
  paidTool?: { style?: PaidStyle };
};

/** How a purchase ended, in groups (OUTCOME_CODES says which case): the purchase tool's `status`. */
export const PURCHASE_STATUSES = [
  "delivered",
  "free",
  "job-pending",
  "confirmation-required",
  "declined",
  "refused",
  "drift",
  "failed",
  "disputed",
] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/**
 * Why a purchase ended as it did, as a value: every decision about money (stop a run, release a reservation, count a
 * delivery) reads this, never the message, whose words may change. `status` groups these; the code says which case.
 */
export const OUTCOME_CODES = [
  // delivered, or nothing to pay
  "delivered",
  "free",
  "job_pending",
  // stopped before anything was signed
  "confirmation_required",
  "declined",
  "confirmation_invalid",
  "server_not_found",
  "unknown_item",
  "missing_params",
  "cannot_pay", // the server cannot be paid by this wallet (network, payee, offers)
  "not_listed", // the terms differ from the registry's listing
  "price_changed", // drift from expected terms, or above the buyer's maximum price
  "policy_rule", // a rule of the spending policy (`rule` names it)
  "daily_cap", // the day's budget of a ledger without a policy (`rule` budgets.day)
  "max_per_purchase",
  "insufficient_balance",
  "tool_error_unpaid", // the tool answered an error without asking for payment
  // signed: what the server and the chain did with the payment
  "payment_refused", // the server refused it, and the chain shows it unused
  "tool_failed_uncharged", // the tool failed, and the chain shows the payment unused
  "charged_failure", // the money moved, nothing (good) was delivered
  "unverified", // the chain could not confirm what the server claims
] as const;
export type OutcomeCode = (typeof OUTCOME_CODES)[number];

export type PurchaseOutcome = {
  status: PurchaseStatus;
  code: OutcomeCode;
  message: string;
  server?: string;
  serverUrl?: string;
  item?: string;
  priceUsd?: string;
  /** A metered purchase: the most it could have cost (priceUsd is what it did cost). */
  maxPriceUsd?: string;
  /** Whether a payment authorisation was signed. */
  signed: boolean;
  transaction?: string;
  orderId?: string;
  result?: unknown;
  jobId?: string;
  checkAfterSeconds?: number;
  confirmationId?: string;
  missingParams?: string[];
  /** The payee the server asked to be paid (when the purchase got that far). */
  payTo?: string;
  /** Milliseconds from sending the paid call to its answer. */
  answeredInMs?: number;
  /** The spending-policy rule that refused the purchase, when one did. */
  rule?: string;
  /** A 2026-07-28 host is to ask the person: the purchase tool answers this input_required result as it is. */
  inputRequired?: InputRequiredResult;
};

/**
 * `confirmations` and `asker` ask the person (settings.elicitation); a buyer with nobody to ask (the registry's test
 * purchases) turns elicitation off and leaves them out. `connection` bounds how the server is reached.
 */
export type PurchaseDeps = {
  settings: Settings;
  wallet: Wallet;
  ledger: PurchaseLedger;
  chain: ChainReader;
  confirmations?: Confirmations;
  asker?: Asker;
  connection?: ConnectionOptions;
};

/**
 * When the payment is taken: `after-success` (the x402 binding: verified, the tool runs, settled only if it succeeded),
 * `before` (MonetizedMCP's make-purchase: settled, then the tool runs), `unknown` (a style whose order is not documented).
 */
export type SettlementOrder = "after-success" | "before" | "unknown";

/**
 * A paid item as this purchase will pay it: the price and payee just read from the server, and when it is taken.
 * `metered` (x402's upto scheme): `units` is the most the call may cost; the server settles what it used.
 */
export type Priced = {
  itemKey: string;
  name: string;
  units: bigint;
  payTo: string;
  order: SettlementOrder;
  metered?: boolean;
  channel?: ChannelTerms;
};

/**
 * A call paid on a payment channel (x402's batch-settlement): the channel, what it holds and what the server has
 * counted so far, and `deposit` when this call opens the channel or tops it up (the person is asked then, not per call).
 */
export type ChannelTerms = { channelId: `0x${string}`; balance: bigint; charged: bigint; deposit?: bigint };

/**
 * The paid tool's request for payment and the offer chosen from it, in the server's own words: `raw` is its
 * requirements object as sent (a version 2 payment echoes it as `accepted`).
 */
export type ToolOffer = { tool: string; ask: PaymentAsk; raw: Record<string, unknown> };

/**
 * What the quote found to pay, and how: the terms every later step checks (Priced), and the x402 requirements the
 * signature is made for. `make-purchase`: a price-list item, x402 version 1 exact in make-purchase's
 * signedTransaction, on requirements built from the price list's price and payee. The others are a tool paid per call
 * in its retried call, by the chosen offer's scheme: `exact-v1` and `exact` (an EIP-3009 authorisation), `upto`
 * (a Permit2 signature for a maximum), `channel` (a voucher on a payment channel, with a deposit when it is short).
 */
export type PricedOffer = Priced &
  (
    | { via: "make-purchase"; requirements: PaymentRequirementsV1 }
    | ({ via: "exact-v1"; requirements: PaymentRequirementsV1 } & ToolOffer)
    | ({ via: "exact"; requirements: PaymentRequirementsV2 } & ToolOffer)
    | ({ via: "upto"; requirements: PaymentRequirementsV2 } & ToolOffer)
    | ({ via: "channel"; requirements: PaymentRequirementsV2; channel: ChannelTerms } & ToolOffer)
  );

/**
 * Something to take without paying: a price-list item priced at 0 (make-purchase, with no payment), or a tool whose
 * unpaid call answered without asking for payment (it has run; `answered` is what it said).
 */
export type FreeItem =
  { via: "make-purchase"; itemKey: string; name: string } | { via: "tool"; tool: string; answered: CallToolResult };

/**
 * Why a paid call did not deliver, as the server's answer shows it (the chain decides what the money did):
 * `no_answer` the call failed or timed out, `refused` the server refused or asked for payment again, `tool_failed`
 * the tool answered an error after the payment was sent, `no_settlement` an answer without a settlement.
 */
export type AnswerCode = "no_answer" | "refused" | "tool_failed" | "no_settlement";

/** What the server answered to a paid call, before the chain is asked. */
export type Answer =
  | {
      ok: true;
      transaction?: string;
      result: unknown;
      orderId?: string;
      jobId?: string;
      checkAfterSeconds?: number;
      /** What a metered settlement says it moved. */
      units?: bigint;
      /** The settlement's scheme fields (a payment channel's running total). */
      extra?: Record<string, unknown>;
    }
  | { ok: false; code: AnswerCode; reason: string };

/** How the chain tells whether a signed payment was used: its EIP-3009 nonce (exact), or its Permit2 nonce (upto). */
export type PaymentProof =
  { kind: "eip3009"; nonce: `0x${string}` } | { kind: "permit2"; nonce: bigint } | { kind: "voucher" };

/** A signed payment, not yet sent: its proof (to ask the chain whether it was used) and the call that carries it. */
export type Signed = {
  proof: PaymentProof;
  call: { tool: string; args: Record<string, unknown>; meta?: Record<string, unknown> };
};

/** What the paid call gave back, as it came (a result, or the error it threw), read by the receipt. */
export type Sent = ({ ok: true; result: CallToolResult } | { ok: false; error: unknown }) & { answeredInMs: number };

export type Context = {
  deps: PurchaseDeps;
  input: PurchaseInput;
  server: ResolvedServer;
  at: Partial<PurchaseOutcome>;
};

export function refused(code: OutcomeCode, message: string, extra: Partial<PurchaseOutcome> = {}): PurchaseOutcome {
  return { status: "refused", code, message, signed: false, ...extra };
}
