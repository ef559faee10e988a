// Which imported listings a proof hands over. A name speaks for a server only where its namespace covers the server's
// host (./namespace.ts coversHost): a proven namespace claims those, and the owner of a host (proven by a file on the
// server's own origin) claims, or takes over, the listings there whose names do not speak for it.
import { claimListings, importedAtOrigin, unclaimedInNamespaces, type ClaimableRow } from "@/db/queries/claims";
import type { Db } from "@/db/types";
import { coversHost, hostOf, namespaceOf } from "./namespace";

/** Whether the listing's upstream name covers its server's host. */
export function nameCoversServer(row: Pick<ClaimableRow, "upstreamName" | "serverUrl">): boolean {
  const namespace = namespaceOf(row.upstreamName);
  return namespace !== null && coversHost(namespace, hostOf(row.serverUrl));
}

/** Every unclaimed imported listing of these namespaces whose server's host the namespace covers becomes `userId`'s. */
export async function claimCoveredListings(db: Db, userId: string, namespaces: string[]): Promise<string[]> {
  const covered = (await unclaimedInNamespaces(db, namespaces)).filter(nameCoversServer);
  return claimListings(
    db,
    userId,
    covered.map((r) => r.id),
  );
}

/** The imported listings at `origin` whose names do not speak for its host become `userId`'s, whoever held them. */
export async function takeOverHostListings(db: Db, userId: string, origin: string): Promise<string[]> {
  const foreign = (await importedAtOrigin(db, origin)).filter((r) => !nameCoversServer(r));
  return claimListings(
    db,
    userId,
    foreign.map((r) => r.id),
    { takeOver: true },
  );
}
