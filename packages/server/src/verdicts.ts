// What taking a payment can come to, whichever scheme carries it: a verified payment held for this call, its
// settlement, or a refusal by code. Shared by the exact/upto gate (payments.ts) and the channel desk (channels.ts).
import type { PaymentRequirements as X402PaymentRequirements } from "@x402/core/types";
import type { Outage, RefusalKind } from "./refusals.js";

export type Timings = { verifyMs: number; settleMs: number };
/**
 * A settled payment: `units` moved to the seller in `transaction`. A metered (upto) call that used nothing settles
 * nothing: units 0 and an empty transaction. A channel voucher is committed without a transaction (empty): the kit
 * claims it later with others.
 */
export type Settled = {
  ok: true;
  transaction: string;
  network: string;
  payer: string;
  units: bigint;
  timings: Timings;
  /** The scheme's own settlement fields (a channel's running total after the call), passed on to the buyer. */
  extra?: Record<string, unknown>;
};
/** Why a payment was refused, as a code: the facilitator's reason by kind, or the kit's own check. */
export type RefusalCode = RefusalKind | "mismatch" | Outage;
export type Refused = {
  ok: false;
  code: RefusalCode;
  reason: string;
  /** The facilitator could not be asked or did not answer. */
  unavailable?: boolean;
  /**
   * The PaymentRequired to answer with instead of the plain offer: a channel's state for a buyer whose count is stale,
   * under x402's own reason code as `error` (x402's clients resync by it).
   */
  corrective?: { error: string; accepts: X402PaymentRequirements[] };
};

/**
 * A payment the facilitator verified, its nonce held by this server: `settle` asks the facilitator to settle it (once;
 * later calls answer the same), `release` frees the nonce when nothing was delivered on it (the buyer may send it
 * again). A payment that is neither settled nor released stays held as long as a settled one.
 */
export type VerifiedPayment = {
  ok: true;
  payer: string;
  /** The authorisation's validBefore, in seconds since 1970: a settlement after it fails. */
  validBefore: number;
  verifyMs: number;
  /** Settles the payment: the price, or for a metered item `units` (at most the signed maximum; 0 settles nothing). */
  settle: (units?: bigint) => Promise<Settled | Refused>;
  release: () => void;
};
