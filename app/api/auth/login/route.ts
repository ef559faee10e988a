import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { issueApiToken, SIGN_IN_TOKEN_DAYS, tokenAnswer } from "@/lib/auth/api-tokens";
import { verifyPasswordSignIn } from "@/lib/auth/password-accounts";
import { errorResponse } from "@/lib/errors";
import { clientIp, readJson } from "@/lib/http";
import { signInSchema } from "@/lib/validations/auth";

// POST /api/auth/login {email, password} → 200 {token, …}; 401 'Invalid email or password.'
export async function POST(request: Request) {
  try {
    const input = await readJson(request, signInSchema);
    const db = await getDb();
    const user = await verifyPasswordSignIn(db, input, clientIp(request));
    const issued = await issueApiToken(db, { userId: user.id, kind: "sign_in", name: "Email sign-in (API)", days: SIGN_IN_TOKEN_DAYS });
    return NextResponse.json(tokenAnswer(issued, user));
  } catch (error) {
    return errorResponse(error, "POST /api/auth/login");
  }
}
