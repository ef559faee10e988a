// The read-only registry and discovery routes as a browser on another origin and a careless client meet them: CORS
// preflights for GET from any origin (never with credentials), 405 for other methods and 404 for unknown paths under
// /v0 and /v0.1, every refusal in the registry's JSON error shape. Driven over real HTTP through the route handlers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { reloadEnv } from "@/lib/env";
import { insertListing } from "@/lib/listings/write";
import * as v01List from "@/app/v0.1/servers/route";
import * as v01One from "@/app/v0.1/servers/[...path]/route";
import * as v0List from "@/app/v0/servers/route";
import * as v0Rest from "@/app/v0/[[...rest]]/route";
import * as v01Rest from "@/app/v0.1/[[...rest]]/route";
import * as resources from "@/app/discovery/resources/route";
import * as search from "@/app/discovery/search/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

type Handler = (request: Request) => Response | Promise<Response>;
type Module = Partial<Record<"GET" | "HEAD" | "OPTIONS" | "POST" | "PUT" | "PATCH" | "DELETE", unknown>>;
const METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
const ORIGIN = "https://app.elsewhere.example";

/** Calls the module's handler for the request's method, as Next would; a missing export is Next's bare 405. */
async function call(mod: Module, request: Request): Promise<Response> {
  const handler = mod[request.method as keyof Module] as Handler | undefined;
  return handler ? handler(request) : new Response(null, { status: 405 });
}

describe.each(drivers())("read-only registry and discovery routes over HTTP on %s", (driver) => {
  let conn: TestConnection;

  beforeAll(async () => {
    process.env.SITE_URL = "https://agora.test";
    process.env.RATE_LIMIT_DISABLED = "1";
    reloadEnv();
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    await insertListing(conn.db, {
      name: "Weather Now",
      slug: "weather-now",
      description: "Current weather.",
      categories: ["Data"],
      price: null,
      serverUrl: "https://weather.example.com/mcp",
      status: "approved",
    });
  });
  afterAll(async () => {
    await conn?.close();
    delete process.env.SITE_URL;
    delete process.env.RATE_LIMIT_DISABLED;
    reloadEnv();
  });

  const reads: [string, Module, string, Record<string, string[]>?][] = [
    ["/v0.1/servers", v01List, "/v0.1/servers"],
    [
      "/v0.1/servers/{name}",
      v01One,
      "/v0.1/servers/dev.agora-mcp%2Fweather-now",
      { path: ["dev.agora-mcp/weather-now"] },
    ],
    ["/v0/servers", v0List, "/v0/servers"],
    ["/discovery/resources", resources, "/discovery/resources"],
    ["/discovery/search", search, "/discovery/search?query=weather"],
  ];

  it.each(reads)(
    "%s answers a GET preflight from any origin, without credentials, and its GET carries Allow-Origin *",
    async (_, mod, path, params) => {
      const preflight = (mod.OPTIONS as (r: Request) => Response)(
        new Request(`http://localhost${path}`, {
          method: "OPTIONS",
          headers: {
            origin: ORIGIN,
            "access-control-request-method": "GET",
            "access-control-request-headers": "if-none-match",
          },
        }),
      );
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
      expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
      expect(preflight.headers.get("access-control-allow-headers")).toBe("if-none-match");
      expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
      const get = mod.GET as (r: Request, c?: unknown) => Promise<Response>;
      const res = await get(
        new Request(`http://localhost${path}`, { headers: { origin: ORIGIN } }),
        params ? { params: Promise.resolve(params) } : undefined,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    },
  );

  it.each(reads)("%s answers any other method 405 in the registry's JSON shape", async (_, mod, path) => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      const res = await (mod[method] as (r: Request) => Response)(
        new Request(`http://localhost${path}`, { method, body: "{}", headers: { "content-type": "application/json" } }),
      );
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(await res.json()).toEqual({
        error: `${method} is not allowed here: this API is read-only (GET).`,
        code: "method_not_allowed",
        message: `${method} is not allowed here: this API is read-only (GET).`,
      });
    }
  });

  it("answers an unknown path under /v0 and /v0.1, with any method, 404 in the registry's JSON shape", async () => {
    for (const [mod, path] of [
      [v0Rest, "/v0/publish"],
      [v01Rest, "/v0.1/publish"],
      [v0Rest, "/v0/auth/github-at"],
      [v01Rest, "/v0.1/nothing/here"],
      [v01Rest, "/v0.1"],
    ] as const) {
      for (const method of METHODS) {
        const res = await call(
          mod,
          new Request(`http://localhost${path}`, {
            method,
            ...(method === "POST" || method === "PUT" ? { body: "{}" } : {}),
          }),
        );
        if (method === "OPTIONS") {
          expect(res.status).toBe(204);
          continue;
        }
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.headers.get("content-type")).toMatch(/application\/json/);
        expect(res.headers.get("access-control-allow-origin")).toBe("*");
        if (method === "HEAD") continue;
        const body = await res.json();
        expect(body).toMatchObject({ code: "not_found", error: body.message });
        expect(body.message).toContain(path);
        if (path.endsWith("/publish"))
          expect(body.message).toBe(
            `${path} does not exist: this registry takes no publications through its API. Submit a server at https://agora.test/submit.`,
          );
      }
    }
  });
});
