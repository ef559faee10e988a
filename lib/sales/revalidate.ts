// After the indexer wrote sales, pages cached with them must go: the detail pages carry the `sales` tag (their
// daily chart is cached under it). The indexer runs outside any request, where Next's revalidateTag cannot be
// called, so it goes through the cache handler's bridge (lib/cache/route-cache-handler.mjs): this instance's cache
// directly, and the other instances' through the same notice an approval sends (lib/cache/shared-tags.ts).
export const SALES_TAG = "sales";

type Bridge = { applyLocally?: (tags: string[]) => Promise<void>; announce?: (tags: string[]) => Promise<void> };

export async function revalidateSalesPages(): Promise<void> {
  const bridge = (globalThis as unknown as Record<symbol, Bridge | undefined>)[Symbol.for("agora.cache-tags")];
  await bridge?.applyLocally?.([SALES_TAG]);
  await bridge?.announce?.([SALES_TAG]);
}
