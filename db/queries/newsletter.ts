import { newsletterSubscribers } from "../schema";
import type { Db } from "../types";

/** Stores the address once; subscribing again is not an error. */
export async function addSubscriber(db: Db, email: string): Promise<void> {
  await db.insert(newsletterSubscribers).values({ email: email.toLowerCase() }).onConflictDoNothing();
}
