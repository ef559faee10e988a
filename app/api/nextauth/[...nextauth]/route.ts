import { NextRequest } from "next/server";
import { CALLBACK_PAGE, handlers } from "@/lib/auth/authjs";
import { errorResponse } from "@/lib/errors";
import { readBody } from "@/lib/http";

/** Auth.js posts small forms (CSRF token, credentials, callback URL); it would read any body whole. */
export const MAX_AUTH_BODY_BYTES = 8 * 1024;

// Auth.js's own endpoints (sign-in redirects, provider callbacks, session, sign-out).
export async function GET(request: NextRequest) {
  // The provider refused (e.g. the person pressed Cancel): its reason goes straight to the callback screen,
  // which shows it as the spec's 'Authentication Error' instead of Auth.js's generic failure.
  const refused = request.nextUrl.searchParams.get("error");
  if (refused && /\/callback\/[\w-]+$/.test(request.nextUrl.pathname)) {
    const to = new URL(CALLBACK_PAGE, request.nextUrl.origin);
    to.searchParams.set("error", request.nextUrl.searchParams.get("error_description") || refused);
    return Response.redirect(to, 302);
  }
  return handlers.GET(request);
}

// The body is read under a cap first (413 past it, whatever Content-Length says), then handed on.
export async function POST(request: NextRequest) {
  let body: Buffer;
  try {
    body = await readBody(request, MAX_AUTH_BODY_BYTES);
  } catch (error) {
    return errorResponse(error, "POST /api/nextauth");
  }
  return handlers.POST(new NextRequest(request.url, { method: "POST", headers: request.headers, body: new Uint8Array(body) }));
}
