// Signing an x402 exact payment (an EIP-3009 authorisation) for the quoted terms, and the call that sends it: a
// make-purchase call (x402 v1 in signedTransaction), or the paid tool's own call with the payment in _meta, in the
// style that asked for it (@agora-mcp/protocol paid-styles.ts).
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { UptoEvmScheme } from "@x402/evm/upto/client";
import { toClientEvmSigner } from "@x402/evm";
import {
  MAKE_PURCHASE_TOOL,
  buildRequirements,
  encodePaymentV1,
  paymentMeta,
  readPaymentAsk,
  readPaymentAskError,
  readPurchaseResult,
  readSettlement,
  sameAddress,
  type PaymentAsk,
  type PaymentPayloadV1,
  type PaymentPayloadV2,
  type PaymentRequirementsV1,
  type UptoEvmPayload,
} from "@agora-mcp/protocol";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { textOf, type Connection } from "../connections.js";
import { channelScheme, channelStorage, depositNonce, recordChannelCall } from "./channel.js";
import type { ChosenOffer } from "./offer.js";
import type { Answer, Context, Priced, Signed } from "./types.js";

const callFailed = (error: unknown): Answer => ({
  ok: false,
  code: "no_answer",
  reason: `the call failed: ${(error as Error).message.split("\n")[0]}`,
});

/** A catalogue item: x402 v1 exact, sent in make-purchase's signedTransaction. */
export async function signMakePurchase(
  c: Connection,
  ctx: Context,
  priced: Priced,
  description: string,
): Promise<Signed> {
  const { settings, wallet } = ctx.deps;
  const params = ctx.input.params ?? {};
  const requirements = buildRequirements({
    network: settings.network,
    units: priced.units,
    payTo: priced.payTo,
    resource: { url: `${ctx.server.url}#${priced.itemKey}`, description },
  });
  const signed = (await new ExactEvmSchemeV1(wallet.account).createPaymentPayload(
    1,
    requirements.v1 as never,
  )) as unknown as PaymentPayloadV1;
  const send = async (): Promise<Answer> => {
    let raw: unknown;
    try {
      raw = await c.call(MAKE_PURCHASE_TOOL, {
        itemId: priced.itemKey,
        params,
        signedTransaction: encodePaymentV1(signed),
        paymentMethod: settings.network.paymentMethod,
      });
    } catch (error) {
      return callFailed(error);
    }
    const outcome = readPurchaseResult(raw);
    if (!outcome.ok) return { ok: false, code: "refused", reason: outcome.reason };
    return {
      ok: true,
      transaction: outcome.transaction,
      result: outcome.toolResult,
      orderId: outcome.orderId,
      jobId: outcome.jobId,
      checkAfterSeconds: outcome.checkAfterSeconds,
    };
  };
  return { proof: { kind: "eip3009", nonce: signed.payload.authorization.nonce as `0x${string}` }, send };
}

/** Why a paid retry's answer is no delivery, in words: another request for payment (never paid twice), or an error. */
function askedAgain(ask: PaymentAsk): string {
  const error = ask.required.error ? `: "${ask.required.error.slice(0, 200)}"` : "";
  return `it answered with another request for payment instead of the result${error} (the wallet does not sign twice)`;
}

/**
 * The paid retry and what its answer says: the settlement (and for a metered payment what it moved), or why nothing
 * was delivered. Another request for payment is never paid twice.
 */
async function paidCall(
  c: Connection,
  tool: string,
  params: Record<string, unknown>,
  meta: Record<string, unknown>,
  ask: PaymentAsk,
  /** Reads a second request for payment (a channel's state, for a wallet whose count is stale); never pays it. */
  onAskedAgain?: (again: PaymentAsk) => Promise<void>,
): Promise<Answer> {
  let paid: CallToolResult;
  try {
    paid = await c.call(tool, params, meta);
  } catch (error) {
    // x402's JSON-RPC transport refuses a payment with another error 402.
    const again = readPaymentAskError(error);
    if (again) await onAskedAgain?.(again).catch(() => undefined);
    return again ? { ok: false, code: "refused", reason: askedAgain(again) } : callFailed(error);
  }
  const again = readPaymentAsk(paid, ask.style);
  if (again) await onAskedAgain?.(again).catch(() => undefined);
  if (again) return { ok: false, code: "refused", reason: askedAgain(again) };
  if (paid.isError) return { ok: false, code: "tool_failed", reason: textOf(paid).slice(0, 300) || "(no text)" };
  const settlement = readSettlement(paid._meta);
  if (!settlement?.success)
    return {
      ok: false,
      code: "no_settlement",
      reason: settlement?.errorReason
        ? `its settlement failed: ${settlement.errorReason}`
        : "the answer carries no successful settlement",
    };
  // A metered call that used nothing settles with no transaction and an amount of 0.
  const units = settlement.amount !== undefined ? BigInt(settlement.amount) : undefined;
  return {
    ok: true,
    transaction: settlement.transaction || undefined,
    units,
    result: textOf(paid),
    ...(settlement.extra ? { extra: settlement.extra } : {}),
  };
}

/**
 * A tool paid per call, in the style that asked: the chosen offer signed in its own version (an EIP-3009
 * authorisation for exactly the quoted amount and payee), sent in the retried call's `_meta` in the style's encoding,
 * the settlement read under either spelling of its key. Nothing is signed again whatever the retry answers: a
 * second request for payment, an error or a failed settlement ends the purchase, and the receipt asks the chain
 * whether the one authorisation was used.
 */
export async function signPaidTool(
  c: Connection,
  ctx: Context,
  tool: string,
  ask: PaymentAsk,
  chosen: ChosenOffer,
  priced: Priced,
): Promise<Signed> {
  const { wallet } = ctx.deps;
  const params = ctx.input.params ?? {};
  const { offer, raw } = chosen;
  // The quote's terms are what is signed: the price and payee the policy, the person and the reservation saw.
  if (offer.units !== priced.units || !sameAddress(offer.requirements.payTo, priced.payTo))
    throw new Error("the offer to sign is not the quoted one; nothing was signed");
  let payment: PaymentPayloadV1 | PaymentPayloadV2;
  if (offer.version === 2 && offer.requirements.scheme === "upto") return signUpto(c, ctx, tool, ask, chosen, priced);
  if (offer.version === 2 && offer.requirements.scheme === "batch-settlement")
    return signChannel(c, ctx, tool, ask, chosen, priced);
  if (offer.version === 2) {
    const requirements = offer.requirements;
    const signed = await new ExactEvmScheme(wallet.account).createPaymentPayload(2, requirements as never);
    // `accepted` echoes the server's own requirements (its match compares them whole), with the signed terms on top.
    const accepted = { ...raw, ...requirements } as PaymentPayloadV2["accepted"];
    const resource = ask.required.resource ?? { url: `${ctx.server.url}#${tool}` };
    payment = { x402Version: 2, accepted, payload: signed.payload as PaymentPayloadV2["payload"], resource };
  } else {
    payment = (await new ExactEvmSchemeV1(wallet.account).createPaymentPayload(
      1,
      offer.requirements as PaymentRequirementsV1 as never,
    )) as unknown as PaymentPayloadV1;
  }
  const authorization = (payment.payload as { authorization?: { nonce?: string; value?: string; to?: string } })
    .authorization;
  if (
    !authorization?.nonce ||
    authorization.value !== offer.units.toString() ||
    !sameAddress(authorization.to, priced.payTo)
  ) {
    throw new Error("the signed authorisation is not for the quoted amount and payee; it was not sent");
  }
  const meta = paymentMeta(ask.style, payment);
  return {
    proof: { kind: "eip3009", nonce: authorization.nonce as `0x${string}` },
    send: () => paidCall(c, tool, params, meta, ask),
  };
}

/**
 * A metered tool (x402's upto scheme): a Permit2 signature for at most the quoted maximum, to the quoted payee, that
 * only the facilitator the offer names may settle; when the wallet's allowance to Permit2 is short and the server
 * offers gas sponsoring, an EIP-2612 permit rides along, so the wallet never needs gas. The settlement says what the
 * call used; the receipt checks it on chain.
 */
async function signUpto(
  c: Connection,
  ctx: Context,
  tool: string,
  ask: PaymentAsk,
  chosen: ChosenOffer,
  priced: Priced,
): Promise<Signed> {
  const { wallet, chain } = ctx.deps;
  const params = ctx.input.params ?? {};
  const requirements = chosen.offer.requirements;
  // The buyer's chain reader (the wallet's RPC, or the site's for its test purchases) answers the signer's reads.
  const signer = toClientEvmSigner(wallet.account, { readContract: (args) => chain.readContract(args) });
  const signed = await new UptoEvmScheme(signer).createPaymentPayload(
    2,
    requirements as never,
    { extensions: ask.required.extensions } as never,
  );
  const permit = (signed.payload as UptoEvmPayload).permit2Authorization;
  if (!permit || permit.permitted.amount !== priced.units.toString() || !sameAddress(permit.witness.to, priced.payTo)) {
    throw new Error("the signed permit is not for the quoted maximum and payee; it was not sent");
  }
  const accepted = { ...chosen.raw, ...requirements } as PaymentPayloadV2["accepted"];
  const resource = ask.required.resource ?? { url: `${ctx.server.url}#${tool}` };
  const payment: PaymentPayloadV2 = {
    x402Version: 2,
    accepted,
    payload: signed.payload as UptoEvmPayload,
    resource,
    ...(signed.extensions ? { extensions: signed.extensions } : {}),
  };
  const meta = paymentMeta(ask.style, payment);
  return { proof: { kind: "permit2", nonce: BigInt(permit.nonce) }, send: () => paidCall(c, tool, params, meta, ask) };
}

/**
 * A call on a payment channel (x402's batch-settlement): a voucher for the channel's running total plus this call's
 * price, with a deposit (an ERC-3009 authorisation to x402's deposit collector) when the quote found the channel short.
 * After a paid answer, the channel's count moves on by this call; a refused or failed call leaves it where it was, so
 * the next call signs the same total again.
 */
async function signChannel(
  c: Connection,
  ctx: Context,
  tool: string,
  ask: PaymentAsk,
  chosen: ChosenOffer,
  priced: Priced,
): Promise<Signed> {
  const { wallet, chain, settings } = ctx.deps;
  const params = ctx.input.params ?? {};
  const terms = priced.channel!;
  const requirements = chosen.offer.requirements;
  const storage = channelStorage(settings);
  const scheme = channelScheme(wallet, chain, storage, terms.deposit);
  const signed = await scheme.createPaymentPayload(2, requirements as never);
  const payload = signed.payload as {
    type: string;
    voucher: { channelId: string; maxClaimableAmount: string };
    deposit?: { amount: string; authorization: { erc3009Authorization?: { salt: string } } };
  };
  // What is sent is what was quoted: this channel, exactly one more call, and the deposit agreed to (or none).
  const deposited = payload.deposit ? BigInt(payload.deposit.amount) : undefined;
  if (
    payload.voucher.channelId.toLowerCase() !== terms.channelId.toLowerCase() ||
    BigInt(payload.voucher.maxClaimableAmount) !== terms.charged + priced.units ||
    deposited !== terms.deposit
  ) {
    throw new Error("the signed voucher is not for the quoted channel, price and deposit; it was not sent");
  }
  const accepted = { ...chosen.raw, ...requirements } as PaymentPayloadV2["accepted"];
  const resource = ask.required.resource ?? { url: `${ctx.server.url}#${tool}` };
  const payment = { x402Version: 2, accepted, payload: signed.payload, resource } as unknown as PaymentPayloadV2;
  const meta = paymentMeta(ask.style, payment);
  const salt = payload.deposit?.authorization.erc3009Authorization?.salt;
  const proof = salt
    ? ({ kind: "eip3009", nonce: depositNonce(terms.channelId, salt) } as const)
    : ({ kind: "voucher" } as const);
  return {
    proof,
    send: async () => {
      // A server whose count differs from this wallet's refuses the voucher with the channel's state and the last
      // voucher it holds; x402's client checks that voucher is this wallet's own signature before taking the count, so
      // the next purchase signs the right total (this one is not retried: nothing is ever sent twice).
      const answer = await paidCall(c, tool, params, meta, ask, (again) =>
        scheme.processCorrectivePaymentRequired(again.required as never).then(() => undefined),
      );
      if (answer.ok) await recordChannelCall(settings, terms, priced.units, answer);
      return answer;
    },
  };
}
