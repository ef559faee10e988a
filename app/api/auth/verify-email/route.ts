import { NextResponse } from "next/server";
import { EMAIL_VERIFIED_MESSAGE, verifyEmail } from "@/lib/auth/email-verification";
import { route } from "@/lib/http/route";
import { verifyEmailSchema } from "@/lib/validations/auth";

// POST /api/auth/verify-email {token} → 200; the mailed link works once, for 24 hours.
export const POST = route(
  { name: "POST /api/auth/verify-email", body: verifyEmailSchema },
  async ({ body: { token }, db, ip }) => {
    await verifyEmail(db, token, ip);
    return NextResponse.json({ message: EMAIL_VERIFIED_MESSAGE });
  },
);
