// A route handler that reads nothing, as Agora's /api/health: Next's routing and a JSON answer.
export const dynamic = "force-dynamic";

export function GET() {
  return Response.json({ ok: true });
}
