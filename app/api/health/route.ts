// GET /api/health — liveness: the process is up and serving. It touches nothing else, so a database outage never
// gets a healthy instance restarted (readiness is /api/ready).
import { NextResponse } from "next/server";

export const dynamic = "force-dynamic";

export function GET() {
  return NextResponse.json({ status: "ok", uptimeSeconds: Math.round(process.uptime()) }, { headers: { "Cache-Control": "no-store" } });
}
