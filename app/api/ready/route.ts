// GET /api/ready — readiness: 200 when the database answers and has every migration of this build, else 503 with
// the reason (within 2 s, even while the database hangs). Neither cached nor rate-limited.
import { NextResponse } from "next/server";
import { checkReadiness } from "@/lib/readiness";

export const dynamic = "force-dynamic";

export async function GET() {
  const readiness = await checkReadiness();
  const headers = { "Cache-Control": "no-store" };
  if (readiness.ready) return NextResponse.json({ status: "ready" }, { headers });
  return NextResponse.json({ status: "unavailable", reason: readiness.reason }, { status: 503, headers: { ...headers, "Retry-After": "5" } });
}
