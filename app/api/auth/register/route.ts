import { NextResponse } from "next/server";
import { tokenAnswer } from "@/lib/auth/api-tokens";
import { registerWithToken } from "@/lib/auth/password-accounts";
import { route } from "@/lib/http/route";
import { registerSchema } from "@/lib/validations/auth";

// POST /api/auth/register {email, password, name} → 201 {token, …}
export const POST = route(
  { name: "POST /api/auth/register", body: registerSchema },
  async ({ body: input, db, ip }) => {
    const { user, issued } = await registerWithToken(db, input, ip);
    return NextResponse.json(tokenAnswer(issued, user), { status: 201 });
  },
);
