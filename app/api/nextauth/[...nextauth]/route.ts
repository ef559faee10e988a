import type { NextRequest } from "next/server";
import { CALLBACK_PAGE, handlers } from "@/lib/auth/authjs";

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

export const POST = handlers.POST;
