// What a buyer reads when a payment fails: one fixed sentence per reason, chosen from the facilitator's
// reason code, never the facilitator's own text. Facilitators put viem's error dumps (RPC URLs, request
// bodies) into `errorReason`/`errorMessage`; those stay in the provider's log (see PaymentGate's `log`).

export type RefusalKind =
  | "insufficient_funds"
  | "expired"
  | "not_yet_valid"
  | "already_used"
  | "invalid_signature"
  | "wrong_amount"
  | "wrong_recipient"
  | "wrong_network"
  | "wrong_token"
  | "wrong_scheme"
  | "malformed"
  | "settlement_pending"
  | "transaction_failed"
  | "facilitator_error"
  | "channel_exhausted"
  | "channel_closed"
  | "channel_busy"
  | "unknown";

/** The sentence after "Payment refused: " (verification) or "Payment not settled: " (settlement). */
export const REFUSAL_MESSAGES: Record<RefusalKind, string> = {
  insufficient_funds: "the payer's USDC balance is too low.",
  expired: "the payment authorisation has expired; sign a new one.",
  not_yet_valid: "the payment authorisation is not valid yet.",
  already_used: "this payment was already used; sign a new one.",
  invalid_signature: "the payment's signature is not valid.",
  wrong_amount: "the payment's amount differs from the price.",
  wrong_recipient: "the payment names another payee than this server's wallet.",
  wrong_network: "the payment is for another network.",
  wrong_token: "the payment is in another token, or the token does not support it.",
  wrong_scheme: "the payment uses a scheme this server does not take.",
  malformed: "the payment could not be read.",
  settlement_pending: "the settlement transaction has not been confirmed yet.",
  transaction_failed: "the settlement transaction failed.",
  facilitator_error: "the payment facilitator failed.",
  channel_exhausted: "the voucher asks for more than the channel's deposit holds; top the channel up.",
  channel_closed: "the payment channel holds nothing (closed or refunded); open a new one.",
  channel_busy: "the payment channel is paying for another call right now; try again.",
  unknown: "the payment facilitator refused it.",
};

export type Outage = "timeout" | "unreachable" | "error";

/**
 * When the facilitator gives no verdict at all. Before settlement nothing can have moved; during it the
 * outcome is unknown, but a signed payment (one EIP-3009 nonce) can move money at most once, whoever sends it.
 */
export const OUTAGE_MESSAGES: Record<"verify" | "settle", Record<Outage, string>> = {
  verify: {
    timeout: "Payment refused: the payment facilitator did not answer in time; nothing was charged. Try again later.",
    unreachable: "Payment refused: the payment facilitator could not be reached; nothing was charged. Try again later.",
    error: "Payment refused: the payment facilitator failed; nothing was charged. Try again later.",
  },
  settle: {
    timeout:
      "Payment not settled: the payment facilitator did not confirm the settlement in time, so nothing was delivered. The signed payment can be taken at most once; check the payer's balance before signing a new one.",
    unreachable:
      "Payment not settled: the payment facilitator could not be reached to settle, so nothing was delivered or charged. Try again later.",
    error:
      "Payment not settled: the payment facilitator failed during settlement, so nothing was delivered. The signed payment can be taken at most once; check the payer's balance before signing a new one.",
  },
};

/**
 * When the facilitator gives no verdict on a settlement asked for after the item ran (the x402 binding): the server
 * withholds the result and counts nothing as charged; the sentence that follows says so (sale.ts).
 */
export const UNSETTLED_OUTAGE_MESSAGES: Record<Outage, string> = {
  timeout: "Payment not settled: the payment facilitator did not confirm the settlement in time.",
  unreachable: "Payment not settled: the payment facilitator could not be reached to settle.",
  error: "Payment not settled: the payment facilitator failed during settlement.",
};

/**
 * The x402 reason codes (x402 spec, @x402/core and @x402/evm 2.x, version 1 names included) by kind. Exact
 * codes first; a code not listed falls to the patterns in `classifyReason`, and then to "unknown".
 */
const CODES: Record<string, RefusalKind> = {
  insufficient_funds: "insufficient_funds",
  invalid_exact_evm_insufficient_balance: "insufficient_funds",
  permit2_insufficient_balance: "insufficient_funds",
  invalid_exact_evm_payload_authorization_valid_before: "expired",
  invalid_exact_evm_authorization_valid_before: "expired",
  permit2_deadline_expired: "expired",
  eip2612_deadline_expired: "expired",
  invalid_exact_evm_payload_authorization_valid_after: "not_yet_valid",
  invalid_exact_evm_authorization_valid_after: "not_yet_valid",
  permit2_not_yet_valid: "not_yet_valid",
  permit2_payment_too_early: "not_yet_valid",
  invalid_exact_evm_nonce_already_used: "already_used",
  permit2_invalid_nonce: "already_used",
  invalid_exact_evm_signature: "invalid_signature",
  invalid_exact_evm_payload_signature: "invalid_signature",
  invalid_exact_evm_failed_to_parse_signature: "invalid_signature",
  invalid_permit2_signature: "invalid_signature",
  eip6492_factory_not_allowed: "invalid_signature",
  invalid_exact_evm_authorization_value: "wrong_amount",
  invalid_exact_evm_payload_authorization_value: "wrong_amount",
  invalid_exact_evm_payload_authorization_value_mismatch: "wrong_amount",
  permit2_amount_mismatch: "wrong_amount",
  permit2_invalid_amount: "wrong_amount",
  permit2_2612_amount_mismatch: "wrong_amount",
  invalid_exact_evm_recipient_mismatch: "wrong_recipient",
  invalid_exact_evm_payload_recipient_mismatch: "wrong_recipient",
  invalid_permit2_recipient_mismatch: "wrong_recipient",
  permit2_invalid_destination: "wrong_recipient",
  invalid_network: "wrong_network",
  invalid_exact_evm_network_mismatch: "wrong_network",
  invalid_exact_evm_token_name_mismatch: "wrong_token",
  invalid_exact_evm_token_version_mismatch: "wrong_token",
  invalid_exact_evm_eip3009_not_supported: "wrong_token",
  invalid_exact_evm_missing_eip712_domain: "wrong_token",
  asset_not_deployed_contract: "wrong_token",
  permit2_token_mismatch: "wrong_token",
  invalid_scheme: "wrong_scheme",
  unsupported_scheme: "wrong_scheme",
  invalid_exact_evm_scheme: "wrong_scheme",
  unsupported_payload_type: "wrong_scheme",
  invalid_x402_version: "malformed",
  invalid_payload: "malformed",
  invalid_payment_requirements: "malformed",
  settlement_pending: "settlement_pending",
  invalid_exact_evm_transaction_failed: "transaction_failed",
  invalid_exact_evm_transfer_event_mismatch: "transaction_failed",
  invalid_exact_evm_transaction_simulation_failed: "transaction_failed",
  invalid_transaction_state: "transaction_failed",
  smart_wallet_deployment_failed: "transaction_failed",
  // x402's batch-settlement channels: a voucher whose running total is not the channel's next one was replayed (or
  // the buyer's count is stale; the answer carries the channel's state).
  invalid_batch_settlement_evm_cumulative_amount_mismatch: "already_used",
  invalid_batch_settlement_evm_cumulative_below_claimed: "already_used",
  invalid_batch_settlement_evm_cumulative_exceeds_balance: "channel_exhausted",
  invalid_batch_settlement_evm_charge_exceeds_signed_cumulative: "channel_exhausted",
  invalid_batch_settlement_evm_channel_not_found: "channel_closed",
  invalid_batch_settlement_evm_missing_channel: "channel_closed",
  invalid_batch_settlement_evm_channel_busy: "channel_busy",
  invalid_batch_settlement_evm_voucher_signature: "invalid_signature",
  invalid_batch_settlement_evm_insufficient_balance: "insufficient_funds",
  invalid_batch_settlement_evm_receiver_mismatch: "wrong_recipient",
  invalid_batch_settlement_evm_token_mismatch: "wrong_token",
  invalid_batch_settlement_evm_scheme: "wrong_scheme",
  invalid_batch_settlement_evm_network_mismatch: "wrong_network",
  unexpected_verify_error: "facilitator_error",
  unexpected_settle_error: "facilitator_error",
};

/** Codes this list does not know yet, by the words x402's codes are made of. */
const PATTERNS: [RegExp, RefusalKind][] = [
  [/insufficient|balance/, "insufficient_funds"],
  [/nonce.*used|already.*used/, "already_used"],
  [/valid_before|expired|deadline/, "expired"],
  [/valid_after|not_yet_valid|too_early/, "not_yet_valid"],
  [/signature/, "invalid_signature"],
  [/recipient|destination/, "wrong_recipient"],
  [/amount|value/, "wrong_amount"],
  [/network/, "wrong_network"],
];

/** The kind of a facilitator's reason. Only the code's leading `[a-z0-9_]` run counts, so no free text steers it. */
export function classifyReason(reason: string | undefined): RefusalKind {
  const code = /^[a-z0-9_]+/.exec((reason ?? "").trim().toLowerCase())?.[0];
  if (!code) return "unknown";
  return CODES[code] ?? PATTERNS.find(([pattern]) => pattern.test(code))?.[1] ?? "unknown";
}

/** One line of at most `max` characters, for the provider's log. */
export function bounded(text: string, max = 300): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
