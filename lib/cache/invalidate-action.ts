// "The catalogue changed", said from a server action: updateTag, so the person's next render reads their own write,
// and revalidatePath for their own pages the write also changes. Apart from invalidate.ts because it imports
// next/cache, which only resolves inside Next; everything else says it through invalidate.ts's changed().
import { revalidatePath, updateTag } from "next/cache";
import { TAGS, type Change } from "./invalidate";

/** A signed-in person's own pages that an action may change besides the catalogue. */
type OwnPage = "/account" | "/admin/review";

/** In a server action: what the action changed, and which of the person's own pages render again. */
export function changedByAction(changes: readonly Change[], pages: readonly OwnPage[] = []): void {
  for (const change of changes) updateTag(TAGS[change]);
  for (const page of pages) revalidatePath(page);
}
