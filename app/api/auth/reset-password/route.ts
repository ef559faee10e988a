import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { resetPassword } from "@/lib/auth/password-reset";
import { errorResponse } from "@/lib/errors";
import { clientIp, readJson } from "@/lib/http";
import { resetPasswordSchema } from "@/lib/validations/auth";

// POST /api/auth/reset-password {token, password} → 200; the link works once, for 30 minutes.
export async function POST(request: Request) {
  try {
    const input = await readJson(request, resetPasswordSchema);
    await resetPassword(await getDb(), input, clientIp(request));
    return NextResponse.json({ message: "Your password has been reset. Sign in with your new password." });
  } catch (error) {
    return errorResponse(error, "POST /api/auth/reset-password");
  }
}
