// POST /api/buyer-reviews/receipts — the wallet that paid one of the listing's sales says, signed (EIP-712), whether
// the call delivered. Body and typed data: @agora-mcp/protocol's signedBuyerReceiptSchema and BUYER_RECEIPT_TYPES.
import { postBuyerReceipt } from "@/lib/buyer-reviews/routes";

export const POST = postBuyerReceipt;
