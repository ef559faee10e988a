import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { addSubscriber } from "@/db/queries/newsletter";
import { ApiError, errorResponse } from "@/lib/errors";
import { clientIp, readJson } from "@/lib/http";
import { NewsletterServiceError, upsertMailchimpMember } from "@/lib/mailchimp";
import { enforceLimit, limits } from "@/lib/rate-limit";
import { newsletterSchema } from "@/lib/validations/newsletter";

export async function POST(request: Request) {
  try {
    const db = await getDb();
    await enforceLimit(db, limits.newsletterPerIp, clientIp(request));
    const { email } = await readJson(request, newsletterSchema);
    // Mailchimp first: if it refuses, nothing is stored and the caller can simply retry.
    try {
      await upsertMailchimpMember(email);
    } catch (error) {
      if (error instanceof NewsletterServiceError) {
        throw new ApiError(502, `a newsletter-service subscription failed: ${error.message}`);
      }
      throw error;
    }
    await addSubscriber(db, email);
    return NextResponse.json({ message: "Successfully subscribed!" }, { status: 200 });
  } catch (error) {
    return errorResponse(error, "newsletter");
  }
}
