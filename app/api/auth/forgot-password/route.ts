import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { requestPasswordReset, RESET_REQUESTED_MESSAGE } from "@/lib/auth/password-reset";
import { errorResponse } from "@/lib/errors";
import { clientIp, readJson } from "@/lib/http";
import { forgotPasswordSchema } from "@/lib/validations/auth";

// POST /api/auth/forgot-password {email} → 200, the same answer whether or not the account exists.
export async function POST(request: Request) {
  try {
    const { email } = await readJson(request, forgotPasswordSchema);
    // The mail goes out after the answer (see requestPasswordReset).
    await requestPasswordReset(await getDb(), email, clientIp(request));
    return NextResponse.json({ message: RESET_REQUESTED_MESSAGE });
  } catch (error) {
    return errorResponse(error, "POST /api/auth/forgot-password");
  }
}
