// GET /api/openapi.json — the OpenAPI 3.1 description of every JSON route, generated from the routes' own schemas
// (lib/http/openapi/document.ts; the routes it covers: ./routes.ts).
import { NextResponse } from "next/server";
import { route } from "@/lib/http/route";
import { openApiDocument } from "@/lib/http/openapi/document";
import { ROUTES } from "./routes";

let document: ReturnType<typeof openApiDocument> | undefined;

export const GET = route({ name: "GET /api/openapi.json", database: false }, () => {
  document ??= openApiDocument(ROUTES);
  return NextResponse.json(document, { headers: { "Access-Control-Allow-Origin": "*", "Cache-Control": "public, max-age=300" } });
});
