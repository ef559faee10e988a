// After the indexer wrote sales, pages cached with them must go: the detail pages carry the `sales` tag (their
// daily chart is cached under it). The indexer runs outside any request (lib/cache/revalidate-outside-request.ts).
import { revalidateOutsideRequest } from "@/lib/cache/revalidate-outside-request";

export const SALES_TAG = "sales";

export async function revalidateSalesPages(): Promise<void> {
  await revalidateOutsideRequest([SALES_TAG]);
}
