import { NextResponse } from "next/server";
import { tokenAnswer } from "@/lib/auth/api-tokens";
import { signInWithGitHubCode } from "@/lib/auth/github";
import { route } from "@/lib/http/route";
import { codeExchangeSchema } from "@/lib/validations/auth";

// POST /api/auth/callback {code} → 200 {token, …}: a GitHub authorization code exchanged for an API token,
// for programs that run the OAuth redirect themselves (browsers sign in through Auth.js).
export const POST = route(
  { name: "POST /api/auth/callback", body: codeExchangeSchema },
  async ({ body: input, db, ip }) => {
    const { user, issued } = await signInWithGitHubCode(db, input, ip);
    return NextResponse.json(tokenAnswer(issued, user));
  },
);
