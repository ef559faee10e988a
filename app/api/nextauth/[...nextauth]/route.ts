import type { NextRequest } from "next/server";
import { CALLBACK_PAGE, handlers } from "@/lib/auth/authjs";
import { configuredOrigin } from "@/lib/public-origin";

// Auth.js's own endpoints (sign-in redirects, provider callbacks, session, sign-out).
export async function GET(request: NextRequest) {
  // The provider refused (e.g. the person pressed Cancel): its error *code* goes to the callback screen, which
  // maps it to a fixed 'Authentication Error' text. The provider's error_description never reaches the page:
  // anyone can put words in a link, so showing them would let a stranger write on this site.
  const refused = request.nextUrl.searchParams.get("error");
  if (refused && /\/callback\/[\w-]+$/.test(request.nextUrl.pathname)) {
    const to = new URL(CALLBACK_PAGE, configuredOrigin() ?? request.nextUrl.origin);
    to.searchParams.set("error", /^[\w.-]{1,64}$/.test(refused) ? refused : "provider_error");
    return Response.redirect(to, 302);
  }
  return handlers.GET(request);
}

export const POST = handlers.POST;
