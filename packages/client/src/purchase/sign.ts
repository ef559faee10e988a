// Signing the quoted offer, and sending the call that carries it: a make-purchase call (x402 v1 in
// signedTransaction), or the paid tool's own call with the payment in _meta, in the style that asked for it
// (@agora-mcp/protocol paid-styles.ts). What is signed is checked against the quote before it is sent; what the
// call answers is returned as it came, for the receipt to read.
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { UptoEvmScheme } from "@x402/evm/upto/client";
import {
  isBatchSettlementDepositPayload,
  isBatchSettlementVoucherPayload,
  isUptoPermit2Payload,
  toClientEvmSigner,
} from "@x402/evm";
import {
  MAKE_PURCHASE_TOOL,
  encodePaymentV1,
  exactEvmPayloadSchema,
  paymentMeta,
  sameAddress,
  type OutgoingPayment,
  type PaymentRequirementsV1,
} from "@agora-mcp/protocol";
import { isHex } from "viem";
import type { Connection } from "../connections.js";
import type { Wallet } from "../wallet.js";
import { channelScheme, channelStorage, depositNonce } from "./channel.js";
import type { Context, PaymentProof, PricedOffer, Sent, Signed, ToolOffer } from "./types.js";

type Via<V extends PricedOffer["via"]> = Extract<PricedOffer, { via: V }>;

/** The payment for the quoted offer, signed by its scheme, and the call that will carry it. Nothing is sent. */
export function sign(ctx: Context, offer: PricedOffer): Promise<Signed> {
  switch (offer.via) {
    case "make-purchase":
      return signMakePurchase(ctx, offer);
    case "exact-v1":
    case "exact":
      return signExact(ctx, offer);
    case "upto":
      return signUpto(ctx, offer);
    case "channel":
      return signChannel(ctx, offer);
  }
}

/** Sends the signed payment once; whatever comes back (a result, or the error the call threw) is the receipt's to read. */
export async function send(c: Connection, signed: Signed): Promise<Sent> {
  const sentAt = performance.now();
  const answeredInMs = () => Math.round(performance.now() - sentAt);
  try {
    const result = await c.call(signed.call.tool, signed.call.args, signed.call.meta);
    return { ok: true, result, answeredInMs: answeredInMs() };
  } catch (error) {
    return { ok: false, error, answeredInMs: answeredInMs() };
  }
}

/**
 * x402 version 1 exact. @x402/evm types its version 1 signer with version 2's requirements, yet reads version 1's
 * fields (maxAmountRequired, the network's version 1 name): the requirements are handed over as version 1 has them.
 */
function signV1(wallet: Wallet, requirements: PaymentRequirementsV1) {
  return new ExactEvmSchemeV1(wallet.account).createPaymentPayload(1, requirements as unknown as PaymentRequirements);
}

/**
 * The proof of a signed EIP-3009 authorisation (its nonce), once it is seen to be for exactly the quoted amount and
 * payee; anything else is never sent.
 */
function exactProof(payload: Record<string, unknown>, offer: PricedOffer): PaymentProof {
  const parsed = exactEvmPayloadSchema.safeParse(payload);
  const authorization = parsed.success ? parsed.data.authorization : undefined;
  if (
    !authorization ||
    !isHex(authorization.nonce) ||
    authorization.value !== offer.units.toString() ||
    !sameAddress(authorization.to, offer.payTo)
  ) {
    throw new Error("the signed authorisation is not for the quoted amount and payee; it was not sent");
  }
  return { kind: "eip3009", nonce: authorization.nonce };
}

/** A price-list item: x402 v1 exact, sent in make-purchase's signedTransaction. */
async function signMakePurchase(ctx: Context, offer: Via<"make-purchase">): Promise<Signed> {
  const { settings, wallet } = ctx.deps;
  const signed = await signV1(wallet, offer.requirements);
  const args = {
    itemId: offer.itemKey,
    params: ctx.input.params ?? {},
    signedTransaction: encodePaymentV1(signed),
    paymentMethod: settings.network.paymentMethod,
  };
  return { proof: exactProof(signed.payload, offer), call: { tool: MAKE_PURCHASE_TOOL, args } };
}

/** The paid tool's retried call: its own parameters, the payment in `_meta` in the encoding its style expects. */
function toolCall(ctx: Context, offer: ToolOffer, payment: OutgoingPayment): Signed["call"] {
  return { tool: offer.tool, args: ctx.input.params ?? {}, meta: paymentMeta(offer.ask.style, payment) };
}

/**
 * A version 2 payment: `accepted` echoes the server's own requirements (its match compares them whole), with the
 * signed terms on top.
 */
function paymentV2(
  ctx: Context,
  offer: ToolOffer & { requirements: PaymentRequirements },
  payload: Record<string, unknown>,
  extensions?: Record<string, unknown>,
): PaymentPayload {
  const accepted: PaymentRequirements = { ...offer.raw, ...offer.requirements };
  const resource = offer.ask.required.resource ?? { url: `${ctx.server.url}#${offer.tool}` };
  return { x402Version: 2, accepted, payload, resource, ...(extensions ? { extensions } : {}) };
}

/**
 * A tool paid per call, exact: the chosen offer signed in its own version (an EIP-3009 authorisation for exactly the
 * quoted amount and payee). Nothing is signed again whatever the retry answers: a second request for payment, an
 * error or a failed settlement ends the purchase, and the receipt asks the chain whether the one authorisation was used.
 */
async function signExact(ctx: Context, offer: Via<"exact-v1" | "exact">): Promise<Signed> {
  const { wallet } = ctx.deps;
  if (offer.via === "exact-v1") {
    const payment = await signV1(wallet, offer.requirements);
    return { proof: exactProof(payment.payload, offer), call: toolCall(ctx, offer, payment) };
  }
  const signed = await new ExactEvmScheme(wallet.account).createPaymentPayload(2, offer.requirements);
  const payment = paymentV2(ctx, offer, signed.payload);
  return { proof: exactProof(payment.payload, offer), call: toolCall(ctx, offer, payment) };
}

/**
 * A metered tool (x402's upto scheme): a Permit2 signature for at most the quoted maximum, to the quoted payee, that
 * only the facilitator the offer names may settle; when the wallet's allowance to Permit2 is short and the server
 * offers gas sponsoring, an EIP-2612 permit rides along, so the wallet never needs gas. The settlement says what the
 * call used; the receipt checks it on chain.
 */
async function signUpto(ctx: Context, offer: Via<"upto">): Promise<Signed> {
  const { wallet, chain } = ctx.deps;
  // The buyer's chain reader (the wallet's RPC, or the site's for its test purchases) answers the signer's reads.
  const signer = toClientEvmSigner(wallet.account, { readContract: (args) => chain.readContract(args) });
  const signed = await new UptoEvmScheme(signer).createPaymentPayload(2, offer.requirements, {
    extensions: offer.ask.required.extensions,
  });
  const permit = isUptoPermit2Payload(signed.payload) ? signed.payload.permit2Authorization : undefined;
  if (!permit || permit.permitted.amount !== offer.units.toString() || !sameAddress(permit.witness.to, offer.payTo)) {
    throw new Error("the signed permit is not for the quoted maximum and payee; it was not sent");
  }
  const payment = paymentV2(ctx, offer, signed.payload, signed.extensions);
  return { proof: { kind: "permit2", nonce: BigInt(permit.nonce) }, call: toolCall(ctx, offer, payment) };
}

/**
 * A call on a payment channel (x402's batch-settlement): a voucher for the channel's running total plus this call's
 * price, with a deposit (an ERC-3009 authorisation to x402's deposit collector) when the quote found the channel short.
 */
async function signChannel(ctx: Context, offer: Via<"channel">): Promise<Signed> {
  const { wallet, chain, settings } = ctx.deps;
  const terms = offer.channel;
  const scheme = channelScheme(wallet, chain, channelStorage(settings), terms.deposit);
  const signed = await scheme.createPaymentPayload(2, offer.requirements);
  const { payload } = signed;
  const voucher =
    isBatchSettlementDepositPayload(payload) || isBatchSettlementVoucherPayload(payload) ? payload : undefined;
  const deposit = voucher?.type === "deposit" ? voucher.deposit : undefined;
  // What is sent is what was quoted: this channel, exactly one more call, and the deposit agreed to (or none).
  if (
    !voucher ||
    voucher.voucher.channelId.toLowerCase() !== terms.channelId.toLowerCase() ||
    BigInt(voucher.voucher.maxClaimableAmount) !== terms.charged + offer.units ||
    (deposit ? BigInt(deposit.amount) : undefined) !== terms.deposit
  ) {
    throw new Error("the signed voucher is not for the quoted channel, price and deposit; it was not sent");
  }
  const salt = deposit?.authorization.erc3009Authorization?.salt;
  const proof: PaymentProof = salt
    ? { kind: "eip3009", nonce: depositNonce(terms.channelId, salt) }
    : { kind: "voucher" };
  return { proof, call: toolCall(ctx, offer, paymentV2(ctx, offer, payload)) };
}
