// Newsletter sign-ups: Mailchimp (when configured) first, then our own list of subscribers.
import type { Db } from "@/lib/database";
import { addSubscriber } from "@/db/queries/newsletter";
import { ApiError } from "./errors";
import { NewsletterServiceError, upsertMailchimpMember } from "./mailchimp";

/** Mailchimp first: if it refuses (502), nothing is stored and the caller can simply retry. */
export async function subscribeToNewsletter(db: Db, email: string): Promise<void> {
  try {
    await upsertMailchimpMember(email);
  } catch (error) {
    if (error instanceof NewsletterServiceError) {
      throw new ApiError(502, `a newsletter-service subscription failed: ${error.message}`);
    }
    throw error;
  }
  await addSubscriber(db, email);
}
