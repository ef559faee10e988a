import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { tokenAnswer } from "@/lib/auth/api-tokens";
import { signInWithGitHubCode } from "@/lib/auth/github";
import { errorResponse } from "@/lib/errors";
import { clientIp, readJson } from "@/lib/http";
import { codeExchangeSchema } from "@/lib/validations/auth";

// POST /api/auth/callback {code} → 200 {token, …}: a GitHub authorization code exchanged for an API token,
// for programs that run the OAuth redirect themselves (browsers sign in through Auth.js).
export async function POST(request: Request) {
  try {
    const input = await readJson(request, codeExchangeSchema);
    const { user, issued } = await signInWithGitHubCode(await getDb(), input, clientIp(request));
    return NextResponse.json(tokenAnswer(issued, user));
  } catch (error) {
    return errorResponse(error, "POST /api/auth/callback");
  }
}
