import { NextResponse } from "next/server";
import { getDb } from "@/db";
import { authenticateBearer } from "@/lib/auth/api-tokens";
import { errorResponse } from "@/lib/errors";
import { readJson } from "@/lib/http";
import { submitServer, toSubmittedAgent } from "@/lib/submissions/submit-server";
import { serverSubmissionSchema } from "@/lib/validations/server-submission";

// POST /api/mcp-agents — a provider submits a server with `Authorization: Bearer agora_…` → 201, pending review.
export async function POST(request: Request) {
  try {
    const db = await getDb();
    const { userId } = await authenticateBearer(db, request);
    const input = await readJson(request, serverSubmissionSchema);
    const listing = await submitServer(db, userId, input);
    return NextResponse.json(toSubmittedAgent(listing), { status: 201 });
  } catch (error) {
    return errorResponse(error, "POST /api/mcp-agents");
  }
}
