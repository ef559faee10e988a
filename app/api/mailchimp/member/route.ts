import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { subscribeToNewsletter } from "@/lib/newsletter";
import { limits } from "@/lib/rate-limit";
import { newsletterSchema } from "@/lib/validations/newsletter";

// POST /api/mailchimp/member {email} → 200 'Successfully subscribed!'. The limit is counted before the body is
// read: malformed requests use up the allowance too.
export const POST = route(
  { name: "newsletter", rateLimit: limits.newsletterPerIp, body: newsletterSchema },
  async ({ body: { email }, db }) => {
    await subscribeToNewsletter(db, email);
    return NextResponse.json({ message: "Successfully subscribed!" }, { status: 200 });
  },
);
