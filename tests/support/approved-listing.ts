// A listing taken through the review flow: submitted, checked, approved by a reviewer and checked again (Verified).
// Shared by the tests of what happens to an approved listing's terms afterwards (drift, held rises and payees).
import { expect } from "vitest";
import type { Db } from "@/db/types";
import { decideListing } from "@/db/queries/reviews";
import { checkListing } from "@/lib/listings/checks/check-listings";
import { insertListing } from "@/lib/listings/write";

const loopback = { allowPrivateHosts: true };

export async function approvedListing(db: Db, reviewerId: string, name: string, url: string): Promise<string> {
  const listing = await insertListing(db, {
    name,
    description: "A server whose terms change after approval.",
    categories: ["Data"],
    serverUrl: url,
    status: "pending",
  });
  await checkListing(db, listing.id, loopback);
  expect(
    (
      await decideListing(db, listing.id, reviewerId, {
        decision: "approved",
        reason: null,
        revision: listing.revision,
      })
    ).ok,
  ).toBe(true);
  expect((await checkListing(db, listing.id, loopback))?.listing).toMatchObject({ verified: true });
  return listing.id;
}
