// Pays a metered (x402 upto) tool the way any x402 client does, without the agent wallet: the unpaid call's
// PaymentRequired, a Permit2 signature for its maximum made by @x402/evm's own upto client (with the EIP-2612 permit
// the server's gas-sponsoring extension asks for), and the paid retry with the payment in `_meta`.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { toClientEvmSigner } from "@x402/evm";
import { UptoEvmScheme } from "@x402/evm/upto/client";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { X402_PAYMENT_META, readPaymentRequired, type PaymentRequired } from "@agora-mcp/protocol";

export type UptoPayment = { required: PaymentRequired; payment: Record<string, unknown> };

/** The server's ask for `tool` and a payment for its first offer signed by `key`. */
export async function signUptoPayment(
  client: Client,
  tool: string,
  args: Record<string, string>,
  key: `0x${string}`,
  rpcUrl: string,
): Promise<UptoPayment> {
  const required = readPaymentRequired(await client.callTool({ name: tool, arguments: args }));
  if (!required) throw new Error(`${tool} did not ask for payment`);
  const offer = required.accepts[0]!;
  const signer = toClientEvmSigner(privateKeyToAccount(key), createPublicClient({ transport: http(rpcUrl) }) as never);
  const signed = await new UptoEvmScheme(signer).createPaymentPayload(
    2,
    offer as never,
    { extensions: required.extensions } as never,
  );
  return {
    required,
    payment: {
      x402Version: 2,
      accepted: offer,
      payload: signed.payload,
      extensions: signed.extensions,
      resource: required.resource,
    },
  };
}

/** Connects to a server's MCP endpoint. */
export async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "upto-buyer", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** One paid call of a metered tool; the result as the server answered it. */
export async function payUpto(
  url: string,
  tool: string,
  args: Record<string, string>,
  key: `0x${string}`,
  rpcUrl: string,
) {
  const client = await connect(url);
  try {
    const { payment } = await signUptoPayment(client, tool, args, key, rpcUrl);
    return await client.callTool({ name: tool, arguments: args, _meta: { [X402_PAYMENT_META]: payment } });
  } finally {
    await client.close();
  }
}
