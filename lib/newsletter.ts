// Newsletter sign-ups: Mailchimp (when configured) first, then our own list of subscribers.
import { getDb, type Db } from "@/lib/database";
import { addSubscriber } from "@/db/queries/newsletter";
import { ApiError } from "./errors";
import { NewsletterServiceError, upsertMailchimpMember } from "./mailchimp";
import { enforceLimit, limits } from "./rate-limit";

/** 429 once this address has subscribed too often. */
export async function limitNewsletterSignups(ip: string): Promise<void> {
  await enforceLimit(await getDb(), limits.newsletterPerIp, ip);
}

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
