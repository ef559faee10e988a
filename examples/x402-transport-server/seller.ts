// The x402 version 2 sale of one MCP tool as x402's own MCP package (`@x402/mcp`'s payment wrapper) makes it, on
// `@x402/core`'s resource server and `@x402/evm`'s exact scheme: no payment or an unmatched one → PaymentRequired;
// a payment → verify with the facilitator, run the tool, and settle only if the run did not answer isError; a
// settlement that throws (the facilitator answered an HTTP error) → PaymentRequired again, without the output. As
// in `@x402/mcp`, a settlement answered `success: false` does not throw: the output goes back with that answer in
// the payment-response. Both x402 MCP transports (the tool-result one and the earlier JSON-RPC 402 error one) sell
// through this; they differ only in how PaymentRequired travels.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { HTTPFacilitatorClient, x402ResourceServer } from "@x402/core/server";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { registerExactEvmScheme } from "@x402/evm/exact/server";
import { BASE_SEPOLIA } from "@agora-mcp/protocol";

export const PAYMENT_META = "x402/payment";
export const PAYMENT_RESPONSE_META = "x402/payment-response";

/** What a tool sells on: who is paid, how much (USDC units, 6 decimals), and which facilitator settles. */
export type SaleTerms = { facilitatorUrl: string; payTo: `0x${string}`; units: bigint };

export type SaleOutcome = { paid: false; paymentRequired: PaymentRequired } | { paid: true; result: CallToolResult };

/** A payment as `@x402/mcp` accepts it: the PaymentPayload object itself (no base64), in `_meta["x402/payment"]`. */
function paymentIn(meta: Record<string, unknown> | undefined): PaymentPayload | undefined {
  const payment = meta?.[PAYMENT_META];
  return typeof payment === "object" && payment !== null && "x402Version" in payment && "payload" in payment
    ? (payment as PaymentPayload)
    : undefined;
}

export async function v2Seller(terms: SaleTerms, tool: { name: string; description: string }) {
  const server = new x402ResourceServer(new HTTPFacilitatorClient({ url: terms.facilitatorUrl }));
  registerExactEvmScheme(server);
  await server.initialize();
  const accepts = await server.buildPaymentRequirements({
    scheme: "exact",
    network: BASE_SEPOLIA.caip2,
    payTo: terms.payTo,
    price: { amount: terms.units.toString(), asset: BASE_SEPOLIA.asset, extra: BASE_SEPOLIA.eip712 },
    maxTimeoutSeconds: 300,
  });
  const resource = { url: `mcp://tool/${tool.name}`, description: tool.description, mimeType: "application/json" };
  const refuse = async (error: string, payload?: PaymentPayload): Promise<SaleOutcome> => ({
    paid: false,
    paymentRequired: await server.createPaymentRequiredResponse(
      accepts,
      resource,
      error,
      undefined,
      undefined,
      payload,
    ),
  });

  return async function sell(
    meta: Record<string, unknown> | undefined,
    run: () => Promise<CallToolResult>,
  ): Promise<SaleOutcome> {
    const payload = paymentIn(meta);
    if (!payload) return refuse("Payment required to access this tool");
    const requirements = server.findMatchingRequirements(accepts, payload);
    if (!requirements) return refuse("No matching payment requirements found");
    const verified = await server.verifyPayment(payload, requirements);
    if (!verified.isValid) return refuse(verified.invalidReason ?? "Payment verification failed", payload);
    const result = await run();
    if (result.isError) return { paid: true, result };
    try {
      const settlement = await server.settlePayment(payload, requirements);
      return { paid: true, result: { ...result, _meta: { ...result._meta, [PAYMENT_RESPONSE_META]: settlement } } };
    } catch (error) {
      return refuse(`Payment settlement failed: ${error instanceof Error ? error.message : "unknown error"}`);
    }
  };
}
