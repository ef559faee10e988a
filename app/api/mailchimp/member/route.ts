import { NextResponse } from "next/server";
import { clientIp } from "@/lib/http";
import { jsonRoute } from "@/lib/json-route";
import { limitNewsletterSignups, subscribeToNewsletter } from "@/lib/newsletter";
import { newsletterSchema } from "@/lib/validations/newsletter";

export const POST = jsonRoute(
  "newsletter",
  newsletterSchema,
  async ({ email }, { db }) => {
    await subscribeToNewsletter(db, email);
    return NextResponse.json({ message: "Successfully subscribed!" }, { status: 200 });
  },
  // Counted before the body is read: malformed requests use up the allowance too.
  { first: (request) => limitNewsletterSignups(clientIp(request)) },
);
