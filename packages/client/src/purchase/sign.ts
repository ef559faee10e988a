// Signing an x402 exact payment (an EIP-3009 authorisation) for the quoted terms, and the call that sends it: a
// make-purchase call (x402 v1 in signedTransaction), or the x402 tool's own call with the payment in _meta.
import { ExactEvmSchemeV1 } from "@x402/evm/exact/v1/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import {
  MAKE_PURCHASE_TOOL,
  X402_PAYMENT_META,
  buildRequirements,
  encodePaymentV1,
  readPaymentRequired,
  readPurchaseResult,
  readSettlementResponse,
  type PaymentPayloadV1,
  type PaymentRequirementsV1,
  type PaymentRequirementsV2,
  type X402Accept,
} from "@agora-mcp/protocol";
import { textOf, type Connection } from "../connections.js";
import type { Answer, Context, Priced, Signed } from "./types.js";

const callFailed = (error: unknown): Answer => ({ ok: false, reason: `the call failed: ${(error as Error).message.split("\n")[0]}` });

/** A catalogue item: x402 v1 exact, sent in make-purchase's signedTransaction. */
export async function signMakePurchase(c: Connection, ctx: Context, priced: Priced, description: string): Promise<Signed> {
  const { settings, wallet } = ctx.deps;
  const params = ctx.input.params ?? {};
  const requirements = buildRequirements({ network: settings.network, units: priced.units, payTo: priced.payTo, resource: { url: `${ctx.server.url}#${priced.itemKey}`, description } });
  const signed = (await new ExactEvmSchemeV1(wallet.account).createPaymentPayload(1, requirements.v1 as never)) as unknown as PaymentPayloadV1;
  const send = async (): Promise<Answer> => {
    let raw: unknown;
    try {
      raw = await c.call(MAKE_PURCHASE_TOOL, { itemId: priced.itemKey, params, signedTransaction: encodePaymentV1(signed), paymentMethod: settings.network.paymentMethod });
    } catch (error) {
      return callFailed(error);
    }
    const outcome = readPurchaseResult(raw);
    if (!outcome.ok) return { ok: false, reason: outcome.reason };
    return { ok: true, transaction: outcome.transaction, result: outcome.toolResult, orderId: outcome.orderId, jobId: outcome.jobId, checkAfterSeconds: outcome.checkAfterSeconds };
  };
  return { nonce: signed.payload.authorization.nonce as `0x${string}`, send };
}

/** An x402 tool: the accepted terms signed in the version the server offered, sent in the retried call's _meta. */
export async function signX402Tool(c: Connection, ctx: Context, tool: string, accept: X402Accept, resource: unknown): Promise<Signed> {
  const { wallet } = ctx.deps;
  const params = ctx.input.params ?? {};
  let payment: unknown;
  let nonce: `0x${string}`;
  if (accept.version === 2) {
    const req = accept.requirements as PaymentRequirementsV2;
    const signed = await new ExactEvmScheme(wallet.account).createPaymentPayload(2, req as never);
    nonce = (signed.payload as { authorization: { nonce: `0x${string}` } }).authorization.nonce;
    payment = { x402Version: 2, accepted: req, payload: signed.payload, resource: resource ?? { url: `${ctx.server.url}#${tool}` } };
  } else {
    const signed = (await new ExactEvmSchemeV1(wallet.account).createPaymentPayload(1, accept.requirements as PaymentRequirementsV1 as never)) as unknown as PaymentPayloadV1;
    nonce = signed.payload.authorization.nonce as `0x${string}`;
    payment = encodePaymentV1(signed);
  }
  const send = async (): Promise<Answer> => {
    const paid = await c.call(tool, params, { [X402_PAYMENT_META]: payment });
    if (paid.isError) return { ok: false, reason: readPaymentRequired(paid)?.error ?? textOf(paid).slice(0, 300) };
    const settlement = readSettlementResponse(paid._meta);
    if (!settlement?.success) return { ok: false, reason: "the answer carries no successful settlement" };
    return { ok: true, transaction: settlement.transaction, result: textOf(paid) };
  };
  return { nonce, send };
}
