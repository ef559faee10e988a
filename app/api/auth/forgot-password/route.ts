import { NextResponse } from "next/server";
import { resetRequestedMessage } from "@/lib/auth/link-words";
import { requestPasswordReset } from "@/lib/auth/password-reset";
import { route } from "@/lib/http/route";
import { linkDelivery } from "@/lib/mail";
import { forgotPasswordSchema } from "@/lib/validations/auth";

// POST /api/auth/forgot-password {email} → 200, the same answer whether or not the account exists.
export const POST = route(
  { name: "POST /api/auth/forgot-password", body: forgotPasswordSchema },
  async ({ body: { email }, db, ip }) => {
    // The mail goes out after the answer (see requestPasswordReset).
    await requestPasswordReset(db, email, ip);
    return NextResponse.json({ message: resetRequestedMessage(linkDelivery()) });
  },
);
