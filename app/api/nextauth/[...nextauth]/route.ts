import { NextRequest } from "next/server";
import { CALLBACK_PAGE, handlers } from "@/lib/auth/authjs";
import { configuredOrigin } from "@/lib/public-origin";
import { route } from "@/lib/http/route";

/** Auth.js posts small forms (CSRF token, credentials, callback URL); it would read any body whole. */
const MAX_AUTH_BODY_BYTES = 8 * 1024;

// Auth.js's own endpoints (sign-in redirects, provider callbacks, session, sign-out).
export const GET = route({ name: "GET /api/nextauth", database: false }, ({ request }) => {
  const { nextUrl } = request as NextRequest; // Next hands route handlers a NextRequest
  // The provider refused (e.g. the person pressed Cancel): its error *code* goes to the callback screen, which
  // maps it to a fixed 'Authentication Error' text. The provider's error_description never reaches the page:
  // anyone can put words in a link, so showing them would let a stranger write on this site.
  const refused = nextUrl.searchParams.get("error");
  if (refused && /\/callback\/[\w-]+$/.test(nextUrl.pathname)) {
    const to = new URL(CALLBACK_PAGE, configuredOrigin() ?? nextUrl.origin);
    to.searchParams.set("error", /^[\w.-]{1,64}$/.test(refused) ? refused : "provider_error");
    return Response.redirect(to, 302);
  }
  return handlers.GET(request as NextRequest);
});

// The body is read under a cap first (413 past it, whatever Content-Length says), then handed on.
export const POST = route(
  { name: "POST /api/nextauth", database: false, rawBody: { maxBytes: MAX_AUTH_BODY_BYTES } },
  ({ request, raw }) =>
    handlers.POST(
      new NextRequest(request.url, { method: "POST", headers: request.headers, body: new Uint8Array(raw) }),
    ),
);
