import { NextResponse } from "next/server";
import { tokenAnswer } from "@/lib/auth/api-tokens";
import { signInWithToken } from "@/lib/auth/password-accounts";
import { route } from "@/lib/http/route";
import { signInSchema } from "@/lib/validations/auth";

// POST /api/auth/login {email, password} → 200 {token, …}; 401 'Invalid email or password.'
export const POST = route({ name: "POST /api/auth/login", body: signInSchema }, async ({ body: input, db, ip }) => {
  const { user, issued } = await signInWithToken(db, input, ip);
  return NextResponse.json(tokenAnswer(issued, user));
});
