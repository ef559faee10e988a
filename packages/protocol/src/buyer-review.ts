// Buyer reviews: a review of a listing signed with EIP-712 by the wallet that paid one of its sales, and the
// signed revocation of one. Plain constants and zod schemas (no viem here): the site checks them, the agent
// client and any other wallet software sign them with their own EIP-712 library (viem's signTypedData,
// ethers' signTypedData, eth_signTypedData_v4). The sale is named as x402's `reputation` extension draft
// names a task: a CAIP-220 reference `eip155:<chainId>:<txHash>` of the settlement.
import { z } from "zod";
import { PAYMENT_NETWORKS } from "./networks.js";

/**
 * The EIP-712 domain's name and version; its chainId is the chain the sale settled on. No verifying contract: nothing
 * is submitted on chain. Version 2 signs the Agora deployment in the message (`site`): version 1 signatures named no
 * deployment, so one Agora accepted a review signed for another.
 */
export const BUYER_REVIEW_DOMAIN = { name: "Agora buyer reviews", version: "2" } as const;

export type BuyerReviewDomain = { name: string; version: string; chainId: number };

export function buyerReviewDomain(chainId: number): BuyerReviewDomain {
  return { ...BUYER_REVIEW_DOMAIN, chainId };
}

/**
 * For which Agora deployment (`site`: its origin, e.g. https://agora.example; a deployment refuses a review signed for
 * another), which sale is reviewed, by whom. `logIndex` names the sale's Transfer log when a transaction holds several sales;
 * -1 means "the one sale in this transaction" (the common case: one x402 settlement per transaction).
 */
const SALE_FIELDS = [
  { name: "site", type: "string" },
  { name: "listing", type: "string" },
  { name: "taskRef", type: "string" },
  { name: "logIndex", type: "int256" },
  { name: "reviewer", type: "address" },
] as const;
/** When the signature was made and until when it counts. */
const VALIDITY_FIELDS = [
  { name: "issuedAt", type: "uint64" },
  { name: "expiresAt", type: "uint64" },
] as const;

/**
 * The EIP-712 types. The order of the fields is part of the signed type string: a review carries its rating and text
 * between the sale and the validity fields, a revocation nothing in between (tests/unit/buyer-review-signature.test.ts
 * pins both strings and signatures made with them).
 */
export const BUYER_REVIEW_TYPES = {
  Review: [...SALE_FIELDS, { name: "rating", type: "uint8" }, { name: "text", type: "string" }, ...VALIDITY_FIELDS],
  RevokeReview: [...SALE_FIELDS, ...VALIDITY_FIELDS],
} as const;

/**
 * A delivery receipt: the wallet that paid a sale says whether the call it paid for delivered (`delivered: false`: it
 * was charged and got nothing good). Same domain and sale fields as a review; its own primary type, so a signature
 * of one can never be read as the other.
 */
export const BUYER_RECEIPT_TYPES = {
  Receipt: [...SALE_FIELDS, { name: "delivered", type: "bool" }, ...VALIDITY_FIELDS],
} as const;

/** Every primary type a buyer signs for the site, for verifying any of them. */
export const BUYER_SIGNED_TYPES = { ...BUYER_REVIEW_TYPES, ...BUYER_RECEIPT_TYPES } as const;

export const BUYER_REVIEW_TEXT_MAX = 1_000;
/** A signature is good for at most this long after it was made (and is refused once expired). */
export const BUYER_REVIEW_MAX_VALIDITY_SECONDS = 3_600;
/** Clock difference tolerated between the signer and the site. */
export const BUYER_REVIEW_CLOCK_SKEW_SECONDS = 300;

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address of 40 hex digits");
const chains = PAYMENT_NETWORKS.map((n) => n.chainId).join("|");
const TASK_REF = new RegExp(`^eip155:(${chains}):0x[0-9a-fA-F]{64}$`);
const seconds = z
  .number()
  .int()
  .min(0)
  .max(2 ** 40);

// Control characters other than line breaks and tabs hide text from a reader; NUL cannot be stored.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/**
 * Invisible characters that change what a reader sees without showing themselves: zero-width spaces and joiners, the
 * word joiner and invisible operators, the byte-order mark, and every bidirectional control (marks, embeddings,
 * overrides, isolates).
 */
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;

/**
 * A review's text with the invisible characters removed: what wallet software signs (the signature covers the exact
 * text, so the site can only refuse what it would otherwise strip).
 */
export function cleanReviewText(text: string): string {
  return text.replace(INVISIBLE, "");
}

export const buyerReviewTextSchema = z
  .string()
  .max(BUYER_REVIEW_TEXT_MAX, `A review is at most ${BUYER_REVIEW_TEXT_MAX} characters.`)
  .refine((t) => !CONTROL.test(t), "The review text contains control characters.")
  .refine(
    (t) => cleanReviewText(t) === t,
    "The review text contains invisible characters (zero-width or text-direction controls); remove them and sign again.",
  );

/** The origin of a deployment, as a review names it: http(s)://host[:port], nothing after. */
export const REVIEW_SITE = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$|^https?:\/\/\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/** The origin `site` names for a deployment reached at `url` (any URL of it). */
export function reviewSiteOf(url: string): string {
  return new URL(url).origin;
}

const common = {
  site: z
    .string()
    .max(200)
    .regex(REVIEW_SITE, "site must be the Agora deployment's origin, e.g. https://agora.example"),
  listing: z.string().min(1, "Name the listing (its id).").max(100),
  taskRef: z.string().regex(TASK_REF, "taskRef must be eip155:<84532|8453>:<0x transaction hash of 64 hex digits>"),
  logIndex: z.number().int().min(-1).max(1_000_000),
  reviewer: address,
  issuedAt: seconds,
  expiresAt: seconds,
};

export const buyerReviewMessageSchema = z.object({
  ...common,
  rating: z.number().int().min(1, "The rating is 1 to 5.").max(5, "The rating is 1 to 5."),
  text: buyerReviewTextSchema,
});
export const buyerReviewRevokeMessageSchema = z.object(common);
export const buyerReceiptMessageSchema = z.object({
  ...common,
  delivered: z.boolean({ message: "delivered must be true or false." }),
});

const domainSchema = z.object({ name: z.string().max(100), version: z.string().max(20), chainId: z.number().int() });
const signature = z.string().regex(/^0x[0-9a-fA-F]{130}$/, "signature must be a 65-byte 0x hex string");

/** POST /api/buyer-reviews: what any wallet software sends. */
export const signedBuyerReviewSchema = z.object({ domain: domainSchema, message: buyerReviewMessageSchema, signature });
/** POST /api/buyer-reviews/revoke. */
export const signedBuyerReviewRevokeSchema = z.object({
  domain: domainSchema,
  message: buyerReviewRevokeMessageSchema,
  signature,
});

/** POST /api/buyer-reviews/receipts: a buyer's signed word on whether a paid call delivered. */
export const signedBuyerReceiptSchema = z.object({
  domain: domainSchema,
  message: buyerReceiptMessageSchema,
  signature,
});

export type BuyerReviewMessage = z.infer<typeof buyerReviewMessageSchema>;
export type BuyerReviewRevokeMessage = z.infer<typeof buyerReviewRevokeMessageSchema>;
export type SignedBuyerReview = z.infer<typeof signedBuyerReviewSchema>;
export type SignedBuyerReviewRevoke = z.infer<typeof signedBuyerReviewRevokeSchema>;
export type BuyerReceiptMessage = z.infer<typeof buyerReceiptMessageSchema>;
export type SignedBuyerReceipt = z.infer<typeof signedBuyerReceiptSchema>;

/** CAIP-220 reference of a settlement transaction. */
export function taskRefOf(chainId: number, txHash: string): string {
  return `eip155:${chainId}:${txHash.toLowerCase()}`;
}

export function parseTaskRef(taskRef: string): { chainId: number; txHash: `0x${string}` } | null {
  const match = TASK_REF.exec(taskRef);
  if (!match) return null;
  return {
    chainId: Number(match[1]),
    txHash: taskRef.slice(taskRef.lastIndexOf(":") + 1).toLowerCase() as `0x${string}`,
  };
}

/** ERC-8004 / x402 `reputation` score (0–100) of a 1–5 star rating. */
export function ratingToScore(rating: number): number {
  return rating * 20;
}
