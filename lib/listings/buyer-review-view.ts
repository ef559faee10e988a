// A stored buyer review as every surface reads it (plain JSON: pages cache it), and as an ERC-8004 reputation
// feedback record (the x402 `reputation` extension draft's shape), so registries and catalogues can import it.
import { findNetwork, ratingToScore, taskRefOf } from "@agora-mcp/protocol";
import type { BuyerReviewRow } from "@/db/schema";
import { transactionPlace } from "@/lib/chain/reader";

export type BuyerReviewView = {
  id: string;
  rating: number;
  /** Plain text: every surface shows it as text, never as HTML or markdown. */
  text: string;
  textHash: string;
  reviewer: string;
  /** Token units (USDC: 6 decimals) the sale paid, from the chain. */
  amount: string;
  /** When the sale's block was mined. */
  paidAt: string;
  createdAt: string;
  taskRef: string;
  network: string;
  txHash: string;
  /** Null on a local chain, which no public explorer shows. */
  explorerUrl: string | null;
  localChain: boolean;
  response: { text: string; createdAt: string } | null;
};

export type BuyerReviewFacts = { count: number; average: number | null; latest: BuyerReviewView[] };

export const NO_BUYER_REVIEWS: BuyerReviewFacts = { count: 0, average: null, latest: [] };

export function toBuyerReviewView(row: BuyerReviewRow): BuyerReviewView {
  const network = findNetwork(row.chainId);
  return {
    id: row.id,
    rating: row.rating,
    text: row.text,
    textHash: row.textHash,
    reviewer: row.payer,
    amount: row.amount,
    paidAt: new Date(row.paidAt).toISOString(),
    createdAt: new Date(row.createdAt).toISOString(),
    taskRef: taskRefOf(row.chainId, row.txHash),
    network: network?.label ?? `eip155:${row.chainId}`,
    txHash: row.txHash,
    ...transactionPlace(String(row.chainId), row.txHash),
    response:
      row.response && row.respondedAt
        ? { text: row.response, createdAt: new Date(row.respondedAt).toISOString() }
        : null,
  };
}

/** A review as an ERC-8004 reputation-registry feedback record (x402 `reputation` extension draft tags). */
export type FeedbackRecord = {
  agentId: string;
  clientAddress: string;
  value: number;
  valueDecimals: 0;
  tag1: "starred";
  tag2: "x402";
  endpoint: string;
  taskRef: string;
  feedbackURI: string;
  /** keccak256 of the review text's UTF-8 bytes. */
  feedbackHash: string;
  createdAt: string;
  isRevoked: false;
  response?: { text: string; createdAt: string };
};

/** `agentId` is the listing's name in the official-registry API; `endpoint` its MCP URL; `feedbackURI` the review on the detail page. */
export function toFeedbackRecord(
  review: BuyerReviewView,
  listing: { registryName: string; serverUrl: string; detailUrl: string },
): FeedbackRecord {
  return {
    agentId: listing.registryName,
    clientAddress: review.reviewer,
    value: ratingToScore(review.rating),
    valueDecimals: 0,
    tag1: "starred",
    tag2: "x402",
    endpoint: listing.serverUrl,
    taskRef: review.taskRef,
    feedbackURI: `${listing.detailUrl}#review-${review.id}`,
    feedbackHash: review.textHash,
    createdAt: review.createdAt,
    isRevoked: false,
    ...(review.response ? { response: review.response } : {}),
  };
}
