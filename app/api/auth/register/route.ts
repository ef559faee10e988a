import { NextResponse } from "next/server";
import { tokenAnswer } from "@/lib/auth/api-tokens";
import { registerWithToken } from "@/lib/auth/password-accounts";
import { jsonRoute } from "@/lib/json-route";
import { registerSchema } from "@/lib/validations/auth";

// POST /api/auth/register {email, password, name} → 201 {token, …}
export const POST = jsonRoute("POST /api/auth/register", registerSchema, async (input, { db, ip }) => {
  const { user, issued } = await registerWithToken(db, input, ip);
  return NextResponse.json(tokenAnswer(issued, user), { status: 201 });
});
