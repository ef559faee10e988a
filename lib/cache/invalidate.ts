// One way to say "the catalogue changed" (or the sales figures): every write that public pages show calls this
// module (or, in a server action, invalidate-action.ts beside it), never Next's revalidation functions directly. Two
// places a write happens:
//  - a server action (an admin's review, an owner's edit): invalidate-action.ts's changedByAction, updateTag so the
//    person's next render reads their own write, and revalidatePath for their own pages the write also changes;
//  - anywhere else (a route handler, the schedule, a background run, a script): through the cache handler's bridge
//    (lib/cache/route-cache-handler.mjs), which expires the tag in this instance's cache at once, as Next's
//    revalidateTag(tag, { expire: 0 }) does, and tells the other instances (lib/cache/shared-tags.ts). Without the
//    handler (a CLI run, a test calling a route handler directly) nothing is cached, and it does nothing: no error
//    to catch, and none swallowed.
// No import of next/cache here: the schedule's and the scripts' code paths load this module outside Next (the
// end-to-end suite's fixtures run them under Node's own loader, where "next/cache" does not resolve).

/** The tag of every page and cached read that shows listings (lib/listings/catalogue.ts). */
export const CATALOGUE_TAG = "listings";
/** The tag of what shows sales figures (the detail pages' daily chart, the listings' counts). */
export const SALES_TAG = "sales";

/** What changed: the catalogue (listings, their checks, claims, buyer reviews, test purchases) or the sales index. */
export type Change = "catalogue" | "sales";
export const TAGS: Record<Change, string> = { catalogue: CATALOGUE_TAG, sales: SALES_TAG };

// Shared with the cache handler, which Next loads outside the app's bundles: hence globalThis.
type Bridge = { applyLocally?: (tags: string[]) => Promise<void>; announce?: (tags: string[]) => Promise<void> };

/** Outside a server action (a route handler, the schedule, a background run): expires the tags here and on every instance. */
export async function changed(...changes: Change[]): Promise<void> {
  const tags = changes.map((change) => TAGS[change]);
  const bridge = (globalThis as unknown as Record<symbol, Bridge | undefined>)[Symbol.for("agora.cache-tags")];
  await bridge?.applyLocally?.(tags);
  await bridge?.announce?.(tags);
}
