import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { EMAIL_VERIFIED_MESSAGE, verifyEmail } from "@/lib/auth/email-verification";
import { errorResponse } from "@/lib/errors";
import { clientIp, readJson } from "@/lib/http";
import { verifyEmailSchema } from "@/lib/validations/auth";

// POST /api/auth/verify-email {token} → 200; the mailed link works once, for 24 hours.
export async function POST(request: Request) {
  try {
    const { token } = await readJson(request, verifyEmailSchema);
    await verifyEmail(await getDb(), token, clientIp(request));
    return NextResponse.json({ message: EMAIL_VERIFIED_MESSAGE });
  } catch (error) {
    return errorResponse(error, "POST /api/auth/verify-email");
  }
}
