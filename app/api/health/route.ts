// GET /api/health — liveness: the process is up and serving. It touches nothing else, so a database outage never
// gets a healthy instance restarted (readiness is /api/ready).
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route({ name: "GET /api/health", database: false }, () =>
  NextResponse.json(
    { status: "ok", uptimeSeconds: Math.round(process.uptime()) },
    { headers: { "Cache-Control": "no-store" } },
  ),
);
