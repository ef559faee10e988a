// Closing a payment channel (x402's batch-settlement cooperative refund): the wallet signs a voucher for exactly what
// the server has counted so far and sends it as a refund to the channel item's tool, which runs nothing; in one
// transaction the server's side claims the calls paid and the rest of the deposit comes back to the wallet. The
// chain is read after: the channel must hold nothing unspent. Nothing is charged by closing.
import { formatUsd, paymentMeta, readSettlement } from "@agora-mcp/protocol";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import {
  computeChannelId,
  readChannelBalanceAndTotalClaimed,
  signVoucher,
  updateChannelAfterRefund,
} from "@x402/evm/batch-settlement/client";
import { findItem, readPriceList } from "../price-list.js";
import { textOf, withConnection } from "../connections.js";
import { resolveServer } from "../servers.js";
import { channelScheme, channelSigner, channelStorage } from "./channel.js";
import { chooseOffer } from "./offer.js";
import { callUnpaid } from "./quote.js";
import type { PurchaseDeps } from "./types.js";

export type CloseChannelInput = { server: string; item: string; params?: Record<string, unknown> };

/** How a close ended: `closed` (the rest came back), `nothing` (no channel, or nothing left in it), or `failed`. */
export type CloseChannelOutcome = {
  status: "closed" | "nothing" | "failed";
  message: string;
  refundedUsd?: string;
  transaction?: string;
};

export async function closeChannel(input: CloseChannelInput, deps: PurchaseDeps): Promise<CloseChannelOutcome> {
  const { settings, wallet, chain } = deps;
  const resolved = await resolveServer(input.server, settings);
  if (!resolved.ok) return { status: "failed", message: resolved.reason };
  const server = resolved.server;
  return withConnection(
    server.url,
    async (c) => {
      const priceList = await readPriceList(c, settings.network, []);
      const item = findItem(priceList, input.item);
      const toolName = item?.x402Tool ?? input.item.trim();
      const tool = priceList.x402Tools.find((t) => t.name === toolName);
      if (!tool)
        return {
          status: "failed",
          message: `${server.label} sells no tool "${input.item}" paid over x402. Nothing was signed.`,
        };
      const params = input.params ?? {};
      const ctx = { deps, input: { server: input.server, item: toolName, params }, server, at: {} };
      const unpaid = await callUnpaid(c, ctx, tool);
      if (!("ask" in unpaid))
        return {
          status: "nothing",
          message: `${server.label}'s tool ${tool.name} asks for no payment: there is no channel to close.`,
        };
      const choice = chooseOffer(unpaid.ask, settings.network);
      if (!choice.ok || choice.offer.version !== 2 || choice.offer.requirements.scheme !== "batch-settlement") {
        return {
          status: "nothing",
          message: `${server.label}'s tool ${tool.name} is not paid through payment channels: there is no channel to close.`,
        };
      }
      const requirements = choice.offer.requirements;
      const storage = channelStorage(settings);
      const config = channelScheme(wallet, chain, storage).buildChannelConfig(requirements);
      const channelId = computeChannelId(config, requirements.network);
      const signer = channelSigner(wallet, chain);
      const local = await storage.get(channelId.toLowerCase());
      const [balance, claimed] = await readChannelBalanceAndTotalClaimed(signer, channelId);
      // What the server has counted: this wallet's own record, never less than what the chain shows claimed.
      const counted =
        local?.chargedCumulativeAmount !== undefined && BigInt(local.chargedCumulativeAmount) > claimed
          ? BigInt(local.chargedCumulativeAmount)
          : claimed;
      if (balance <= counted)
        return {
          status: "nothing",
          message: `Your payment channel with ${server.label} holds nothing unspent: there is nothing to close.`,
        };
      const voucher = await signVoucher(signer, channelId, counted.toString(), requirements.network);
      const accepted: PaymentRequirements = { ...choice.raw, ...requirements };
      const payment: PaymentPayload = {
        x402Version: 2,
        accepted,
        payload: { type: "refund", channelConfig: config, voucher },
        resource: unpaid.ask.required.resource ?? { url: `${server.url}#${tool.name}` },
      };
      const answered = await c.call(tool.name, params, paymentMeta(unpaid.ask.style, payment));
      const settlement = readSettlement(answered._meta);
      if (answered.isError || !settlement?.success) {
        return {
          status: "failed",
          message: `${server.label} did not close the channel: ${textOf(answered).slice(0, 300) || "no settlement in its answer"}. Nothing moved; try again.`,
        };
      }
      const [after] = await readChannelBalanceAndTotalClaimed(signer, channelId);
      const refunded = balance - after;
      await updateChannelAfterRefund(storage, channelId.toLowerCase());
      return {
        status: "closed",
        refundedUsd: formatUsd(refunded),
        transaction: settlement.transaction,
        message: `Closed your payment channel with ${server.label}: ${formatUsd(refunded)} came back to ${wallet.address} (transaction ${settlement.transaction}, checked on chain); the ${formatUsd(counted)} of calls paid on it was claimed for the payee in the same transaction.`,
      };
    },
    deps.connection,
  );
}
