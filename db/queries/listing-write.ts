// Writes listings, keeping the search text every reader depends on in step with name, description and categories.
// Slug and categories arrive already derived (lib/listings/write.ts).
import { and, eq, ne, sql } from "drizzle-orm";
import { listings, type ListingRow, type NewListingRow } from "../schema";
import type { Db } from "../types";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type ListingRowInput = Omit<NewListingRow, "id" | "searchText" | "slug" | "categories"> & {
  slug: string;
  categories: string[];
};

/**
 * The fields an owner edits (a pending edit proposes them; a listing not yet approved takes them at once), with the
 * tools they name as paid and when they agreed to those tools' unpaid calls.
 */
export type EditInput = Pick<
  ListingRow,
  "name" | "description" | "categories" | "serverUrl" | "websiteUrl" | "paidTools" | "paidToolsConsentedAt"
>;

export function buildSearchText(name: string, description: string, categories: string[]): string {
  return `${name}\n${description}\n${categories.join(", ")}`.toLowerCase();
}

/**
 * The row to insert: the input with its search text (and, for one inserted approved, when it was approved: when it
 * was created, as the migration dates listings approved before approvals were dated; rows seeded together then keep
 * their order for "who named a wallet first" instead of tying on one instant).
 */
export function listingRow(input: ListingRowInput): NewListingRow {
  const approvedAt = input.approvedAt ?? (input.status === "approved" ? (input.createdAt ?? new Date()) : null);
  return { ...input, approvedAt, searchText: buildSearchText(input.name, input.description, input.categories) };
}

/**
 * Inserts a listing; a taken slug gets a short random suffix instead of failing. `nameOf` spells the registry name
 * a slug gives a listing without a stored one: a slug whose name an imported listing holds is taken too.
 */
export async function insertListingRow(
  db: Db,
  input: ListingRowInput,
  nameOf?: (slug: string) => string,
): Promise<ListingRow> {
  const row = listingRow(input);
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = attempt === 0 ? input.slug : `${input.slug}-${Math.random().toString(36).slice(2, 7)}`;
    if (
      nameOf &&
      !input.registryName &&
      (
        await db
          .select({ id: listings.id })
          .from(listings)
          .where(eq(listings.registryName, nameOf(slug)))
          .limit(1)
      ).length > 0
    )
      continue;
    const [created] = await db
      .insert(listings)
      .values({ ...row, slug })
      .onConflictDoNothing({ target: listings.slug })
      .returning();
    if (created) return created;
  }
  throw new Error("Could not allocate a unique slug");
}

/**
 * The fields an upstream update must leave alone from now on: those this edit changed, added to those changed
 * before (compared with the stored values inside the same UPDATE, so no read can go stale in between).
 */
export function ownerEditedFields(input: Pick<ListingRow, "name" | "description" | "websiteUrl">) {
  const changed = sql`array_remove(array[
    case when ${listings.name} is distinct from ${input.name}::text then 'name' end,
    case when ${listings.description} is distinct from ${input.description}::text then 'description' end,
    case when ${listings.websiteUrl} is distinct from ${input.websiteUrl}::text then 'websiteUrl' end
  ]::text[], null)`;
  return sql`array(select distinct f from unnest(${listings.editedFields} || ${changed}) as f order by f)`;
}

/** The fields an owner's edit can set that an upstream source also supplies (see ownerEditedFields). */
/** `categories`: only an upstream that states them (another Agora); any other source leaves a listing's own. */
export type UpstreamFields = Pick<ListingRow, "name" | "description" | "websiteUrl"> &
  Partial<Pick<ListingRow, "categories">>;

/**
 * An upstream update of an imported listing: its name, description, website and (when the upstream states them)
 * categories follow the source, except the fields its owner edited. Returns whether anything changed (an unchanged entry writes nothing).
 */
export async function refreshImportedListing(db: Db, serverUrl: string, upstream: UpstreamFields): Promise<boolean> {
  const [row] = await db
    .select({
      id: listings.id,
      name: listings.name,
      description: listings.description,
      websiteUrl: listings.websiteUrl,
      categories: listings.categories,
      editedFields: listings.editedFields,
    })
    .from(listings)
    .where(and(eq(listings.serverUrl, serverUrl), ne(listings.source, "agora")));
  if (!row) return false;
  const kept = new Set(row.editedFields);
  const next = {
    name: kept.has("name") ? row.name : upstream.name,
    description: kept.has("description") ? row.description : upstream.description,
    websiteUrl: kept.has("websiteUrl") ? row.websiteUrl : upstream.websiteUrl,
    categories: kept.has("categories") || !upstream.categories?.length ? row.categories : upstream.categories,
  };
  const sameCategories = next.categories.join("\n") === row.categories.join("\n");
  if (
    next.name === row.name &&
    next.description === row.description &&
    next.websiteUrl === row.websiteUrl &&
    sameCategories
  )
    return false;
  await db
    .update(listings)
    .set({ ...next, searchText: buildSearchText(next.name, next.description, next.categories), updatedAt: sql`now()` })
    .where(eq(listings.id, row.id));
  return true;
}

/**
 * A provider's edit: new fields, and the listing goes back to review (and out of the public catalogue)
 * until an admin approves it again. Null when the listing is not the owner's.
 */
export async function updateListingForReview(
  db: Db | Tx,
  listingId: string,
  ownerId: string,
  input: EditInput,
): Promise<ListingRow | null> {
  const [updated] = await db
    .update(listings)
    .set({
      ...input,
      searchText: buildSearchText(input.name, input.description, input.categories),
      editedFields: ownerEditedFields(input),
      status: "pending",
      rejectionReason: null,
      verified: false,
      // A reviewer who opened the queue before this edit can no longer approve the old text.
      revision: sql`${listings.revision} + 1`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(listings.id, listingId), eq(listings.submitterId, ownerId)))
    .returning();
  return updated ?? null;
}
