import { NextResponse } from "next/server";
import { getDb } from "@/lib/database";
import { tokenAnswer } from "@/lib/auth/api-tokens";
import { registerWithToken } from "@/lib/auth/password-accounts";
import { errorResponse } from "@/lib/errors";
import { clientIp, readJson } from "@/lib/http";
import { registerSchema } from "@/lib/validations/auth";

// POST /api/auth/register {email, password, name} → 201 {token, …}
export async function POST(request: Request) {
  try {
    const input = await readJson(request, registerSchema);
    const { user, issued } = await registerWithToken(await getDb(), input, clientIp(request));
    return NextResponse.json(tokenAnswer(issued, user), { status: 201 });
  } catch (error) {
    return errorResponse(error, "POST /api/auth/register");
  }
}
