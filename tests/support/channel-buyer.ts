// Pays a channel (x402 batch-settlement) tool the way any x402 client does, without the agent wallet: the unpaid
// call's PaymentRequired, a deposit or voucher made by @x402/evm's own batch-settlement client (its channel state in
// memory), and the paid call with the payment in `_meta`; the settlement in the answer's `_meta` updates the client's
// running total as x402's client hooks do.
import type { Client } from "@modelcontextprotocol/client";
import { toClientEvmSigner } from "@x402/evm";
import {
  BatchSettlementEvmScheme,
  computeChannelId,
  InMemoryClientChannelStorage,
  updateChannelFromSettle,
} from "@x402/evm/batch-settlement/client";
import { createPublicClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  X402_PAYMENT_META,
  X402_PAYMENT_RESPONSE_META,
  readPaymentRequired,
  type PaymentRequired,
} from "@agora-mcp/protocol";

export type ChannelBuyer = {
  address: `0x${string}`;
  storage: InMemoryClientChannelStorage;
  scheme: BatchSettlementEvmScheme;
  /** Signs the next payment for `tool` (a deposit when the channel holds too little, else a voucher). */
  sign: (
    client: Client,
    tool: string,
    args: Record<string, string>,
  ) => Promise<{ required: PaymentRequired; payment: Record<string, unknown> }>;
  /** Calls `tool` with `payment`, and counts the call in the channel's running total when it was paid. */
  call: (
    client: Client,
    tool: string,
    args: Record<string, string>,
    payment: Record<string, unknown>,
  ) => Promise<Awaited<ReturnType<Client["callTool"]>>>;
};

/** A buyer whose first deposit is `deposit` units (x402's default otherwise: the server's minDeposit hint). */
export function channelBuyer(key: `0x${string}`, rpcUrl: string, deposit?: bigint): ChannelBuyer {
  const account = privateKeyToAccount(key);
  const signer = toClientEvmSigner(account, createPublicClient({ transport: http(rpcUrl) }) as never);
  const storage = new InMemoryClientChannelStorage();
  const scheme = new BatchSettlementEvmScheme(signer, {
    storage,
    ...(deposit !== undefined
      ? { depositStrategy: (ctx) => (BigInt(ctx.minimumDepositAmount) > deposit ? undefined : deposit.toString()) }
      : {}),
  });
  return {
    address: account.address,
    storage,
    scheme,
    async sign(client, tool, args) {
      const required = readPaymentRequired(await client.callTool({ name: tool, arguments: args }));
      if (!required) throw new Error(`${tool} did not ask for payment`);
      const offer = required.accepts[0]!;
      const signed = await scheme.createPaymentPayload(2, offer as never);
      return {
        required,
        payment: { x402Version: 2, accepted: offer, payload: signed.payload, resource: required.resource },
      };
    },
    async call(client, tool, args, payment) {
      const result = await client.callTool({ name: tool, arguments: args, _meta: { [X402_PAYMENT_META]: payment } });
      const settlement = result._meta?.[X402_PAYMENT_RESPONSE_META] as
        | { success?: boolean; extra?: { chargedAmount?: string; channelState?: { chargedCumulativeAmount?: string } } }
        | undefined;
      if (settlement?.success) {
        const accepted = payment.accepted as { amount: string; network: string };
        const payload = payment.payload as { type: string; channelConfig: never; deposit?: { amount: string } };
        await updateChannelFromSettle(storage, {
          server: {
            chargedAmount: settlement.extra?.chargedAmount ?? accepted.amount,
            chargedCumulativeAmount: settlement.extra?.channelState?.chargedCumulativeAmount,
          },
          local: {
            channelId: computeChannelId(payload.channelConfig, accepted.network),
            requestAmount: accepted.amount,
            ...(payload.deposit ? { depositAmount: payload.deposit.amount } : {}),
          },
        });
      }
      return result;
    },
  };
}
