// The proxy's short answers (the database gate, refused state changes, unreadable addresses), built by the same
// function as the preloads' (server/plain-answer.mjs), so a client sees one shape and one code whichever layer answers.
import { NextResponse, type NextRequest } from "next/server";
import { plainAnswer, type PlainOptions } from "@/server/plain-answer.mjs";

/** The refusal `options.code` names, as the request asked for it: JSON-RPC on /api/mcp, a page for a browser, JSON otherwise. */
export function plainNextResponse(request: NextRequest, options: PlainOptions): NextResponse {
  const answer = plainAnswer(
    { method: request.method, path: request.nextUrl.pathname, accept: request.headers.get("accept") },
    options,
  );
  return new NextResponse(answer.body ?? null, { status: answer.status, headers: answer.headers });
}
