import { NextResponse } from "next/server";
import { EMAIL_VERIFIED_MESSAGE, verifyEmail } from "@/lib/auth/email-verification";
import { jsonRoute } from "@/lib/json-route";
import { verifyEmailSchema } from "@/lib/validations/auth";

// POST /api/auth/verify-email {token} → 200; the mailed link works once, for 24 hours.
export const POST = jsonRoute("POST /api/auth/verify-email", verifyEmailSchema, async ({ token }, { db, ip }) => {
  await verifyEmail(db, token, ip);
  return NextResponse.json({ message: EMAIL_VERIFIED_MESSAGE });
});
