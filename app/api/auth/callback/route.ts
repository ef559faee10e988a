import { NextResponse } from "next/server";
import { tokenAnswer } from "@/lib/auth/api-tokens";
import { signInWithGitHubCode } from "@/lib/auth/github";
import { jsonRoute } from "@/lib/json-route";
import { codeExchangeSchema } from "@/lib/validations/auth";

// POST /api/auth/callback {code} → 200 {token, …}: a GitHub authorization code exchanged for an API token,
// for programs that run the OAuth redirect themselves (browsers sign in through Auth.js).
export const POST = jsonRoute("POST /api/auth/callback", codeExchangeSchema, async (input, { db, ip }) => {
  const { user, issued } = await signInWithGitHubCode(db, input, ip);
  return NextResponse.json(tokenAnswer(issued, user));
});
