// The client's buyer reviews as the registry receives them: a review and its revocation are signed by the wallet
// with the shared EIP-712 types, in the body the registry's endpoints parse, and each signature is good only for
// its own kind. The revoke_review tool is offered beside review, marked as destructive.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { verifyTypedData } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import {
  BUYER_REVIEW_MAX_VALIDITY_SECONDS,
  BUYER_REVIEW_TYPES,
  signedBuyerReviewRevokeSchema,
  signedBuyerReviewSchema,
} from "@agora-mcp/protocol";
import {
  buildClientServer,
  chainReader,
  Ledger,
  ledgerFileFor,
  loadSettings,
  signReview,
  signRevocation,
  walletFromKey,
} from "@agora-mcp/client";

const KEY = `0x${"5d".repeat(32)}` as const;
const TX = `0x${"ab".repeat(32)}`;
const LISTING = "0b5e7c8e-3f43-4d0e-9a53-2d1c8f0e6a11";
const SITE = "https://agora.example";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "agora-review-signing-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// viem takes the int/uint fields as bigints.
const asTyped = <M extends { logIndex: number; issuedAt: number; expiresAt: number; reviewer: string }>(m: M) => ({
  ...m,
  reviewer: m.reviewer as `0x${string}`,
  logIndex: BigInt(m.logIndex),
  issuedAt: BigInt(m.issuedAt),
  expiresAt: BigInt(m.expiresAt),
});

describe("client buyer-review signatures", () => {
  const wallet = walletFromKey(KEY);

  it("signs a revocation the registry's schema takes and that recovers to this wallet, for this purchase only", async () => {
    const now = Date.UTC(2026, 10, 25, 12, 0, 0);
    const body = await signRevocation(wallet, SITE, 84532, LISTING, TX.toUpperCase().replace("0X", "0x"), now);
    expect(signedBuyerReviewRevokeSchema.parse(body)).toEqual(body);
    expect(body.domain).toEqual({ name: "Agora buyer reviews", version: "2", chainId: 84532 });
    expect(body.message).toEqual({
      site: SITE,
      listing: LISTING,
      taskRef: `eip155:84532:${TX}`,
      logIndex: -1,
      reviewer: wallet.address,
      issuedAt: now / 1000,
      expiresAt: now / 1000 + 600,
    });
    expect(body.message.expiresAt - body.message.issuedAt).toBeLessThanOrEqual(BUYER_REVIEW_MAX_VALIDITY_SECONDS);
    const check = {
      address: wallet.address,
      domain: body.domain,
      types: BUYER_REVIEW_TYPES,
      signature: body.signature as `0x${string}`,
    };
    expect(await verifyTypedData({ ...check, primaryType: "RevokeReview", message: asTyped(body.message) })).toBe(true);
    // Another purchase, another chain: not what was signed.
    expect(
      await verifyTypedData({
        ...check,
        primaryType: "RevokeReview",
        message: asTyped({ ...body.message, taskRef: `eip155:84532:0x${"cd".repeat(32)}` }),
      }),
    ).toBe(false);
    expect(
      await verifyTypedData({
        ...check,
        domain: { ...body.domain, chainId: 8453 },
        primaryType: "RevokeReview",
        message: asTyped(body.message),
      }),
    ).toBe(false);
    // Another Agora deployment: not what was signed.
    expect(
      await verifyTypedData({
        ...check,
        primaryType: "RevokeReview",
        message: asTyped({ ...body.message, site: "https://other.example" }),
      }),
    ).toBe(false);
  });

  it("signs a review's text without zero-width or text-direction characters", async () => {
    const review = await signReview(wallet, SITE, 84532, LISTING, TX, {
      rating: 5,
      text: "pay\u200Bpal\u202E is fine\uFEFF",
    });
    expect(review.message.text).toBe("paypal is fine");
    expect(signedBuyerReviewSchema.parse(review)).toEqual(review);
  });

  it("keeps a review's signature and a revocation's apart: neither passes for the other", async () => {
    const review = await signReview(wallet, SITE, 84532, LISTING, TX, { rating: 4, text: "Quick and right." });
    expect(signedBuyerReviewSchema.parse(review)).toEqual(review);
    const revocation = await signRevocation(wallet, SITE, 84532, LISTING, TX);
    const base = { address: wallet.address, domain: review.domain, types: BUYER_REVIEW_TYPES };
    expect(
      await verifyTypedData({
        ...base,
        primaryType: "Review",
        message: asTyped(review.message),
        signature: review.signature as `0x${string}`,
      }),
    ).toBe(true);
    expect(
      await verifyTypedData({
        ...base,
        primaryType: "RevokeReview",
        message: asTyped(revocation.message),
        signature: review.signature as `0x${string}`,
      }),
    ).toBe(false);
    expect(
      await verifyTypedData({
        ...base,
        primaryType: "Review",
        message: asTyped(review.message),
        signature: revocation.signature as `0x${string}`,
      }),
    ).toBe(false);
  });

  it("offers revoke_review beside review, destructive, taking the server, the transaction and a confirmation id", async () => {
    const settings = loadSettings({
      AGORA_REGISTRY_URL: "http://127.0.0.1:9/api",
      AGORA_RPC_URL: "http://127.0.0.1:9",
      AGORA_WALLET_FILE: path.join(dir, "wallet.json"),
    });
    const server = buildClientServer({
      settings,
      wallet,
      ledger: new Ledger(ledgerFileFor(settings, wallet.address)),
      chain: chainReader(settings.network, settings.rpcUrl),
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "host", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["review", "revoke_review"]));
      const revoke = tools.find((t) => t.name === "revoke_review")!;
      expect(revoke.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
      expect(Object.keys(revoke.inputSchema.properties ?? {})).toEqual(["server", "transaction", "confirmationId"]);
      expect(revoke.inputSchema.required).toEqual(["server"]);
    } finally {
      await client.close();
    }
  });
});
