// GET /api/ready — readiness: 200 when the database answers and has every migration of this build, else 503 with
// the reason (within 2 s, even while the database hangs). Neither cached nor rate-limited; it reaches the database
// through checkReadiness alone, so the route itself takes none.
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { checkReadiness } from "@/lib/readiness";

export const dynamic = "force-dynamic";

export const GET = route({ name: "GET /api/ready", database: false }, async () => {
  const readiness = await checkReadiness();
  const headers = { "Cache-Control": "no-store" };
  if (readiness.ready) return NextResponse.json({ status: "ready" }, { headers });
  return NextResponse.json(
    { status: "unavailable", reason: readiness.reason },
    { status: 503, headers: { ...headers, "Retry-After": "5" } },
  );
});
