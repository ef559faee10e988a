import { NextResponse } from "next/server";
import { resetPassword } from "@/lib/auth/password-reset";
import { route } from "@/lib/http/route";
import { resetPasswordSchema } from "@/lib/validations/auth";

// POST /api/auth/reset-password {token, password} → 200; the link works once, for 30 minutes.
export const POST = route(
  { name: "POST /api/auth/reset-password", body: resetPasswordSchema },
  async ({ body: input, db, ip }) => {
    await resetPassword(db, input, ip);
    return NextResponse.json({ message: "Your password has been reset. Sign in with your new password." });
  },
);
