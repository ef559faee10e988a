// The sample catalogue as a first run sees it: its reference listings point at a real reference server on
// loopback and earn 'Verified' from a real probe; every other listing stays unverified.
import { probeSampleListings } from "@/lib/sample-catalogue/probes";
import { seedSampleCatalogue } from "@/lib/sample-catalogue/seed";
import type { Db } from "@/db/types";
import { startReferenceServer, type ReferenceServer } from "@/examples/monetized-server";

export async function seedProbedSample(db: Db): Promise<ReferenceServer> {
  const reference = await startReferenceServer({ port: 0 });
  await seedSampleCatalogue(db, new Date(), reference.url);
  const verified = await probeSampleListings(db, { allowPrivateHosts: true });
  if (verified !== 3) throw new Error(`expected the 3 reference listings to be verified, got ${verified}`);
  return reference;
}
