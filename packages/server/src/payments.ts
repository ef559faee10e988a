// Takes one payment for one item: checks it against the server's own listing (amount, payee, network,
// token, validity window, replay), asks the facilitator to verify it and holds its nonce, and settles it when the
// caller says so (sale.ts: after a successful delivery on the x402 binding, before delivery on make-purchase). Every refusal names its reason in a fixed sentence (refusals.ts); what the
// facilitator said in its own words goes to the provider's log only. Nothing here ever moves money itself.
import { HTTPFacilitatorClient } from "@x402/core/http";
import type {
  PaymentPayload as X402PaymentPayload,
  PaymentRequirements as X402PaymentRequirements,
} from "@x402/core/types";
import {
  buildRequirements,
  decodePayment,
  formatUsd,
  isUptoPayload,
  sameAddress,
  type PaymentPayload,
  type PaymentPayloadV2,
  type PaymentRequirementsV1,
  type PaymentRequirementsV2,
  type ResourceInfo,
} from "@agora-mcp/protocol";
import type { SaleItem, ResolvedOptions } from "./config.js";
import { ChannelDesk } from "./channels.js";
import { bounded, classifyReason, OUTAGE_MESSAGES, REFUSAL_MESSAGES, type Outage } from "./refusals.js";

export type { RefusalCode, Refused, Settled, Timings, VerifiedPayment } from "./verdicts.js";
import type { Refused, Settled, VerifiedPayment } from "./verdicts.js";

/** How long the answer to GET /supported is trusted: a facilitator's signer rarely changes. */
const SUPPORTED_TTL_MS = 10 * 60 * 1000;

/** Keeps a settled authorisation's nonce for longer than any authorisation stays valid. */
const USED_NONCE_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_REMEMBERED = 100_000;

/** Whether a v2 payload's `accepted` is the requirements offered: same values, addresses in any letter case. */
function sameRequirements(accepted: PaymentPayloadV2["accepted"], offered: PaymentRequirementsV2): boolean {
  const extra = (e: Record<string, unknown>) =>
    JSON.stringify(Object.entries(e).sort(([a], [b]) => a.localeCompare(b)));
  return (
    accepted.network === offered.network &&
    accepted.amount === offered.amount &&
    accepted.maxTimeoutSeconds === offered.maxTimeoutSeconds &&
    sameAddress(accepted.asset, offered.asset) &&
    sameAddress(accepted.payTo, offered.payTo) &&
    extra(accepted.extra) === extra(offered.extra)
  );
}

/**
 * The payment and requirements as @x402/core's facilitator client takes them. Version 2 is its own shape. The client
 * is typed for version 2 only, yet sends a payload's own x402Version and the facilitator answers version 1 by its
 * fields: a version 1 pair travels as it is, under the version 2 type (the one place the two shapes meet).
 */
function facilitatorRequest(
  payment: PaymentPayload,
  requirements: { v1: PaymentRequirementsV1; v2: PaymentRequirementsV2 },
) {
  if (payment.x402Version === 2) {
    const v2: { payload: X402PaymentPayload; reqs: X402PaymentRequirements } = {
      payload: payment,
      reqs: requirements.v2,
    };
    return v2;
  }
  return {
    payload: payment as unknown as X402PaymentPayload,
    reqs: requirements.v1 as unknown as X402PaymentRequirements,
  };
}

/** What a payment's signature commits to, whichever scheme signed it (EIP-3009 exact, or Permit2 upto). */
function signedTerms(payment: PaymentPayload): {
  from: string;
  to: string;
  value: string;
  nonce: string;
  validAfter: string;
  validBefore: string;
  token?: string;
} {
  const payload = payment.payload;
  if (isUptoPayload(payload)) {
    const p = payload.permit2Authorization;
    return {
      from: p.from,
      to: p.witness.to,
      value: p.permitted.amount,
      nonce: `p2:${p.nonce}`,
      validAfter: p.witness.validAfter,
      validBefore: p.deadline,
      token: p.permitted.token,
    };
  }
  const a = payload.authorization;
  return {
    from: a.from,
    to: a.to,
    value: a.value,
    nonce: a.nonce,
    validAfter: a.validAfter,
    validBefore: a.validBefore,
  };
}

export class PaymentGate {
  private readonly facilitator: HTTPFacilitatorClient;
  /** Nonces being settled right now, or settled recently: the same signed payment delivers once. */
  private readonly nonces = new Map<string, number>();
  /** The facilitator's address for upto payments (its /supported `extra`), asked once and kept a while. */
  private uptoFacilitator?: { at: number; address: Promise<string | undefined> };
  /** Items sold through payment channels (x402's batch-settlement scheme). */
  readonly channels: ChannelDesk;

  constructor(private readonly options: ResolvedOptions) {
    this.facilitator = new HTTPFacilitatorClient({
      url: options.facilitatorUrl,
      timeoutMs: options.facilitatorTimeoutMs,
    });
    this.channels = new ChannelDesk(options, this.facilitator);
  }

  resourceFor(item: SaleItem): ResourceInfo {
    const base = this.options.publicUrl ?? `mcp://${this.options.name}`;
    return {
      url: `${base}#${item.x402Tool ?? "make-purchase"}/${item.id}`,
      description: `${item.name}: ${item.description}`.slice(0, 300),
      mimeType: "application/json",
    };
  }

  requirements(item: SaleItem): { v1: PaymentRequirementsV1; v2: PaymentRequirementsV2 } {
    return buildRequirements({
      network: this.options.network,
      units: item.units,
      payTo: this.options.walletAddress,
      resource: this.resourceFor(item),
    });
  }

  /**
   * The version 2 requirements a buyer signs for `item`: exact at its price, or for a metered item upto its maximum,
   * naming the facilitator that alone may settle it (read from the facilitator's /supported). Undefined when the
   * facilitator settles no upto payments on this network, or cannot be asked.
   */
  async offer(item: SaleItem): Promise<PaymentRequirementsV2 | undefined> {
    if (item.channel) return (await this.channels.offer(item)) as PaymentRequirementsV2 | undefined;
    if (!item.metered) return this.requirements(item).v2;
    const facilitatorAddress = await this.uptoFacilitatorAddress();
    if (!facilitatorAddress) return undefined;
    const { network, walletAddress } = this.options;
    return buildRequirements({
      network,
      units: item.units,
      payTo: walletAddress,
      resource: this.resourceFor(item),
      scheme: "upto",
      extra: { facilitatorAddress },
    }).v2;
  }

  private uptoFacilitatorAddress(): Promise<string | undefined> {
    if (!this.uptoFacilitator || Date.now() - this.uptoFacilitator.at > SUPPORTED_TTL_MS) {
      const caip2 = this.options.network.caip2;
      const address = this.facilitator
        .getSupported()
        .then((supported) => {
          const kind = supported.kinds.find((k) => k.x402Version === 2 && k.scheme === "upto" && k.network === caip2);
          const named = kind?.extra?.facilitatorAddress;
          return typeof named === "string" && /^0x[0-9a-fA-F]{40}$/.test(named) ? named : undefined;
        })
        .catch((error: unknown) => {
          this.options.log(`facilitator supported: ${bounded(String((error as Error).message ?? error))}`);
          this.uptoFacilitator = undefined;
          return undefined;
        });
      this.uptoFacilitator = { at: Date.now(), address };
    }
    return this.uptoFacilitator.address;
  }

  /**
   * Verifies `rawPayment` for `item` and holds its nonce: the same signed payment cannot be verified again until
   * the hold is released (nothing ran, or the tool failed) or, once settled or delivered, ever again.
   */
  async verify(item: SaleItem, rawPayment: unknown): Promise<VerifiedPayment | Refused> {
    if (item.channel) return this.channels.verify(item, rawPayment);
    const decoded = decodePayment(rawPayment);
    if (!decoded.ok) return { ok: false, code: "malformed", reason: decoded.error };
    const payment = decoded.payment;
    const offered = await this.offer(item);
    // A metered item whose facilitator names no upto signer cannot be paid; nothing was asked of the buyer's money.
    if (!offered)
      return { ok: false, code: "unreachable", reason: OUTAGE_MESSAGES.verify.unreachable, unavailable: true };
    const requirements = { ...this.requirements(item), v2: offered };
    const mismatch = this.precheck(item, payment, offered);
    if (mismatch) return { ok: false, code: "mismatch", reason: mismatch };
    const signed = signedTerms(payment);

    const key = `${signed.from.toLowerCase()}:${signed.nonce.toLowerCase()}`;
    this.forgetExpired();
    // A replay this server caught itself (or the same payment while its tool still runs) reads as the facilitator's
    // own code would (refusals.ts).
    if (this.nonces.has(key))
      return { ok: false, code: "already_used", reason: `Payment refused: ${REFUSAL_MESSAGES.already_used}` };
    this.nonces.set(key, Date.now());
    const release = () => void this.nonces.delete(key);
    const { payload, reqs } = facilitatorRequest(payment, requirements);
    const t0 = performance.now();
    const verified = await this.ask("verify", () => this.facilitator.verify(payload, reqs));
    const verifyMs = Math.round(performance.now() - t0);
    if ("refused" in verified || !verified.value.isValid) {
      release();
      return "refused" in verified
        ? verified.refused
        : this.refuse("verify", verified.value.invalidReason, verified.value.invalidMessage);
    }
    const payer = verified.value.payer ?? signed.from;
    let settling: Promise<Settled | Refused> | undefined;
    return {
      ok: true,
      payer,
      validBefore: Number(signed.validBefore),
      verifyMs,
      release,
      settle: (units = item.units) =>
        (settling ??= (async (): Promise<Settled | Refused> => {
          // A metered call that used nothing moves nothing: no transaction, and the signature is never spent.
          if (units === 0n)
            return {
              ok: true,
              transaction: "",
              network: offered.network,
              payer,
              units: 0n,
              timings: { verifyMs, settleMs: 0 },
            };
          // upto: the facilitator settles the requirements' amount, the part of the signed maximum the call used.
          const settleReqs = item.metered ? ({ ...reqs, amount: units.toString() } as X402PaymentRequirements) : reqs;
          const t1 = performance.now();
          const settlement = await this.ask("settle", () => this.facilitator.settle(payload, settleReqs));
          const settleMs = Math.round(performance.now() - t1);
          if ("refused" in settlement) return settlement.refused;
          if (!settlement.value.success || !settlement.value.transaction)
            return this.refuse("settle", settlement.value.errorReason, settlement.value.errorMessage);
          return {
            ok: true,
            transaction: settlement.value.transaction,
            network: String(settlement.value.network),
            payer: settlement.value.payer ?? payer,
            units,
            timings: { verifyMs, settleMs },
          };
        })()),
    };
  }

  /** Verifies and settles `rawPayment` for `item` (payment first). Resolves once the settlement is final either way. */
  async charge(item: SaleItem, rawPayment: unknown): Promise<Settled | Refused> {
    const verified = await this.verify(item, rawPayment);
    if (!verified.ok) return verified;
    const settled = await verified.settle();
    // A payment that did not settle frees its nonce (the buyer may retry once the cause is fixed): nothing ran on
    // it, and the chain itself refuses a nonce that did settle.
    if (!settled.ok) verified.release();
    return settled;
  }

  /** Checks that need no facilitator: the payment must match this server's own listing exactly. */
  private precheck(item: SaleItem, payment: PaymentPayload, offered: PaymentRequirementsV2): string | undefined {
    const { network, walletAddress } = this.options;
    const scheme = item.metered ? "upto" : "exact";
    if (payment.x402Version === 1 && (item.metered || payment.scheme !== "exact"))
      return `Payment refused: only the ${scheme} scheme is accepted`;
    const paidNetwork = payment.x402Version === 1 ? payment.network : payment.accepted.network;
    if (paidNetwork !== (payment.x402Version === 1 ? network.v1Network : network.caip2)) {
      return `Payment refused: it is for network ${paidNetwork.slice(0, 40)}, this server is paid on ${network.label}`;
    }
    if (payment.x402Version === 2) {
      if (payment.accepted.scheme !== scheme || isUptoPayload(payment.payload) !== (item.metered === true))
        return `Payment refused: only the ${scheme} scheme is accepted`;
      if (!sameAddress(payment.accepted.asset, network.asset))
        return `Payment refused: it is in another token; this server takes USDC on ${network.label}`;
      if (!sameAddress(payment.accepted.payTo, walletAddress))
        return "Payment refused: it names another payee than this server's wallet";
      // x402 v2: `accepted` repeats one of the requirements the server offered, field for field.
      if (!sameRequirements(payment.accepted, offered)) {
        return `Payment refused: its accepted requirements differ from those of "${item.name}"; sign the requirements the server answered`;
      }
      // The signature does not cover the resource, so two items at one price take the same signed transfer; a payment
      // that says which item it is for is held to it, so a payment meant for one item never buys another.
      const resource = payment.resource?.url;
      if (resource !== undefined && resource !== this.resourceFor(item).url) {
        return `Payment refused: it was made out for another item, not "${item.name}"; pay the requirements this tool answers`;
      }
    }
    const signed = signedTerms(payment);
    if (!sameAddress(signed.to, walletAddress))
      return "Payment refused: it names another payee than this server's wallet";
    if (signed.token !== undefined && !sameAddress(signed.token, network.asset))
      return `Payment refused: it is in another token; this server takes USDC on ${network.label}`;
    if (BigInt(signed.value) !== item.units) {
      const what = item.metered
        ? `a maximum of ${formatUsd(signed.value)}, the most "${item.name}" may cost is ${formatUsd(item.units)}`
        : `${formatUsd(signed.value)}, the price of "${item.name}" is ${formatUsd(item.units)}`;
      return `Payment refused: it authorises ${what}`;
    }
    const now = BigInt(Math.floor(Date.now() / 1000));
    // Six seconds of slack: the settlement transaction must land before the authorisation expires.
    if (BigInt(signed.validBefore) <= now + 6n) return "Payment refused: the payment authorisation has expired";
    if (BigInt(signed.validAfter) > now) return "Payment refused: the payment authorisation is not valid yet";
    return undefined;
  }

  /** A facilitator's verdict against the payment: a fixed message for the buyer, the facilitator's words to the log. */
  private refuse(step: "verify" | "settle", reason: string | undefined, message: string | undefined): Refused {
    const kind = classifyReason(reason);
    this.options.log(
      `facilitator ${step} refused a payment (${kind}): ${bounded(`${reason ?? "no reason"}${message ? ` ${message}` : ""}`)}`,
    );
    return {
      ok: false,
      code: kind,
      reason: `${step === "verify" ? "Payment refused" : "Payment not settled"}: ${REFUSAL_MESSAGES[kind]}`,
    };
  }

  private async ask<T>(
    step: "verify" | "settle",
    call: () => Promise<T>,
  ): Promise<{ value: T } | { refused: Refused }> {
    try {
      return { value: await call() };
    } catch (error) {
      // The facilitator client throws VerifyError/SettleError for a non-2xx answer that still carries a verdict.
      const verdict = error as {
        invalidReason?: string;
        errorReason?: string;
        invalidMessage?: string;
        errorMessage?: string;
        name?: string;
        message?: string;
      };
      if (verdict.invalidReason || verdict.errorReason) {
        return {
          refused: this.refuse(
            step,
            verdict.invalidReason ?? verdict.errorReason,
            verdict.invalidMessage ?? verdict.errorMessage,
          ),
        };
      }
      // By the error's type, never its words: the facilitator client's own timeout, or an aborted fetch.
      const timedOut = ["FacilitatorTimeoutError", "TimeoutError", "AbortError"].includes(String(verdict.name));
      // Only a refused or unresolvable connection proves the request never arrived; a connection dropped midway,
      // or an answer that is no verdict (5xx, HTML), is the facilitator's failure with the outcome unknown.
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const unreachable =
        !timedOut && ["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"].includes(String(cause));
      const outage: Outage = timedOut ? "timeout" : unreachable ? "unreachable" : "error";
      this.options.log(`facilitator ${step} ${outage}: ${bounded(String(verdict.message ?? error))}`);
      return { refused: { ok: false, code: outage, reason: OUTAGE_MESSAGES[step][outage], unavailable: true } };
    }
  }

  private forgetExpired(): void {
    const cutoff = Date.now() - USED_NONCE_TTL_MS;
    for (const [key, at] of this.nonces) {
      if (at >= cutoff && this.nonces.size <= MAX_REMEMBERED) break;
      this.nonces.delete(key);
    }
  }
}
