// /api/openapi.json: a valid OpenAPI 3.1 document (checked against the official schema by
// @seriousme/openapi-schema-validator), covering every route file under app/ that answers JSON, every method each
// exports, and every error code; the registry's operations under the official MCP Registry OpenAPI's names.
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/api/openapi.json/route";
import { NOT_JSON, ROUTES } from "@/app/api/openapi.json/routes";
import { ERROR_CODE_STATUS, FORM_ONLY_CODES } from "@/lib/errors";
import { HTTP_METHODS, operationsOf, type HttpMethod } from "@/lib/http/openapi/document";

const root = path.resolve(import.meta.dirname, "../..");

function routeFiles(dir = "app"): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return routeFiles(rel);
    return /^route\.tsx?$/.test(entry.name) ? [rel] : [];
  });
}

/** The HTTP methods a route file exports (`export const GET`, `export async function POST`, `export const { OPTIONS } = …`). */
function exportedMethods(file: string): HttpMethod[] {
  const source = readFileSync(path.join(root, file), "utf8");
  const destructured = [...source.matchAll(/export\s+const\s*\{([^}]*)\}/g)].flatMap((m) =>
    m[1]!.split(",").map((name) =>
      name
        .trim()
        .split(/\s*:\s*/)
        .at(-1),
    ),
  );
  return HTTP_METHODS.filter(
    (method) =>
      new RegExp(`export\\s+(const|(async\\s+)?function)\\s+${method}\\b`).test(source) ||
      destructured.includes(method),
  );
}

/** What is wrong with the description's coverage of app/'s route files: one sentence per problem, naming the file. */
function coverageProblems(routes: typeof ROUTES): string[] {
  const problems: string[] = [];
  for (const file of routeFiles()) {
    if (file in NOT_JSON) continue;
    const described = routes[file];
    if (!described) {
      problems.push(
        `${file} answers JSON but is not in the API description: add it to ROUTES in app/api/openapi.json/routes.ts (or to NOT_JSON there, with what it answers, if it answers no JSON).`,
      );
      continue;
    }
    const exported = exportedMethods(file);
    for (const method of exported) {
      if (operationsOf(described[method]).length === 0)
        problems.push(`${file} exports ${method}, which ROUTES in app/api/openapi.json/routes.ts does not describe.`);
    }
    for (const method of HTTP_METHODS) {
      if (described[method] && !exported.includes(method))
        problems.push(`${file}: ROUTES describes ${method}, which the file does not export.`);
    }
  }
  for (const file of [...Object.keys(routes), ...Object.keys(NOT_JSON)]) {
    if (!existsSync(path.join(root, file)))
      problems.push(`${file} is described in app/api/openapi.json/routes.ts but does not exist.`);
  }
  return problems;
}

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: string;
        tags: string[];
        parameters?: { name: string; in: string }[];
        responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
        "x-error-codes": string[];
      }
    >
  >;
  components: { schemas: Record<string, { enum?: string[] }> };
};

async function served(): Promise<Doc> {
  const response = await GET(new Request("http://localhost/api/openapi.json"));
  expect(response.status).toBe(200);
  return (await response.json()) as Doc;
}

describe("the API description", () => {
  it("is served at /api/openapi.json and valid OpenAPI 3.1", async () => {
    const doc = await served();
    // ServerDetail refers to the official server.json schema by its $id (the vendored copy's); the validator resolves
    // internal references only, so that one external reference is checked here and stood in for below.
    const serverJson = JSON.parse(
      readFileSync(path.join(root, "tests/support/official-registry/server.schema.json"), "utf8"),
    ) as { $id: string };
    expect(doc.components.schemas.ServerDetail).toEqual({ $ref: serverJson.$id });
    const local = structuredClone(doc);
    local.components.schemas.ServerDetail = { type: "object" } as never;
    const result = await new Validator().validate(local as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect((doc as unknown as { openapi: string }).openapi).toBe("3.1.0");
  });

  it("describes every route file under app/ that answers JSON, and each method it exports", () => {
    expect(routeFiles().length).toBeGreaterThan(20);
    expect(coverageProblems(ROUTES)).toEqual([]);
  });

  it("fails, naming the file, when a route is left out or a method is missing", () => {
    const { ["app/api/health/route.ts"]: _left, ...rest } = ROUTES;
    expect(coverageProblems(rest)).toEqual([
      "app/api/health/route.ts answers JSON but is not in the API description: add it to ROUTES in app/api/openapi.json/routes.ts (or to NOT_JSON there, with what it answers, if it answers no JSON).",
    ]);
    const { DELETE: _delete, ...mcpRest } = ROUTES["app/api/mcp/route.ts"]!;
    expect(coverageProblems({ ...ROUTES, "app/api/mcp/route.ts": mcpRest })).toEqual([
      "app/api/mcp/route.ts exports DELETE, which ROUTES in app/api/openapi.json/routes.ts does not describe.",
    ]);
  });

  it("is checked by a validator that refuses a broken document", async () => {
    const result = await new Validator().validate({
      openapi: "3.1.0",
      paths: { "/x": { get: { responses: { "200": {} } } } },
    });
    expect(result.valid).toBe(false);
  });

  it("names every error code, with its status, and every code is answered by some operation", async () => {
    const doc = await served();
    const codes = Object.keys(ERROR_CODE_STATUS).sort();
    expect([...(doc.components.schemas.ErrorCode!.enum ?? [])].sort()).toEqual(codes);
    const answered = new Set(
      Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op["x-error-codes"])),
    );
    // A page's form submissions have codes of their own, listed but answered by no JSON route.
    expect([...answered, ...FORM_ONLY_CODES].sort()).toEqual(codes);
    for (const code of FORM_ONLY_CODES) expect(answered.has(code)).toBe(false);
    // Each code is listed under the status it is answered with.
    const listOp = doc.paths["/api/mcp-agents"]!.get!;
    expect(listOp["x-error-codes"]).toEqual(
      expect.arrayContaining(["invalid_input", "invalid_cursor", "unavailable", "internal_error"]),
    );
    expect(JSON.stringify(listOp.responses["400"])).toContain("invalid_cursor");
    expect(JSON.stringify(listOp.responses["503"])).toContain("unavailable");
    // What the server and the proxy answer in front of a route: every operation may be refused as busy or
    // restarting, a write from another site only where the proxy judges writes (not the public MCP endpoint).
    expect(listOp["x-error-codes"]).toEqual(expect.arrayContaining(["overloaded", "restarting", "invalid_address"]));
    expect(listOp["x-error-codes"]).not.toContain("cross_site_request");
    expect(doc.paths["/api/mcp-agents"]!.post!["x-error-codes"]).toContain("cross_site_request");
    expect(doc.paths["/api/mcp"]!.post!["x-error-codes"]).not.toContain("cross_site_request");
    expect(JSON.stringify(doc.paths["/v0.1/servers"]!.get!.responses["503"])).toContain("#/components/schemas/Error");
  });

  it("takes parameters and bodies from the schemas the routes validate with", async () => {
    const doc = await served();
    const names = (p: string, m = "get") => (doc.paths[p]![m]!.parameters ?? []).map((x) => `${x.in}:${x.name}`);
    expect(names("/api/mcp-agents")).toEqual(
      expect.arrayContaining([
        "query:q",
        "query:category",
        "query:price",
        "query:source",
        "query:sort",
        "query:limit",
        "query:page",
        "query:cursor",
      ]),
    );
    expect(names("/discovery/resources")).toEqual(
      expect.arrayContaining(["query:payTo", "query:network", "query:maxUsdPrice", "query:offset"]),
    );
    expect(names("/api/mcp-agents/{id}")).toEqual(["path:id"]);
    // A path parameter's schema is the one route() checks it with.
    const id = doc.paths["/api/mcp-agents/{id}"]!.get!.parameters![0] as unknown as {
      schema: { type: string; maxLength: number };
    };
    expect(id.schema).toMatchObject({ type: "string", maxLength: 200 });
    expect(doc.paths["/api/mcp-agents/{id}"]!.get!["x-error-codes"]).toContain("invalid_input");
    const register = doc.paths["/api/auth/register"]!.post! as unknown as {
      requestBody: { content: { "application/json": { schema: { required: string[] } } } };
    };
    expect(register.requestBody.content["application/json"].schema.required).toEqual(
      expect.arrayContaining(["email", "password", "name"]),
    );
    expect(doc.paths["/api/mcp-agents"]!.post! as unknown).toHaveProperty("security", [{ bearerAuth: [] }]);
  });

  it("gives the registry routes the official MCP Registry OpenAPI's paths, tag and schema names", async () => {
    const doc = await served();
    const ref = (p: string) =>
      JSON.stringify(doc.paths[p]!.get!.responses["200"]!.content!["application/json"]!.schema);
    expect(ref("/v0.1/servers")).toContain("#/components/schemas/ServerList");
    expect(ref("/v0.1/servers/{serverName}/versions")).toContain("#/components/schemas/ServerList");
    expect(ref("/v0.1/servers/{serverName}/versions/{version}")).toContain("#/components/schemas/ServerResponse");
    expect(doc.paths["/v0.1/servers"]!.get!.tags).toEqual(["servers"]);
    expect(doc.paths["/v0.1/servers/{serverName}/versions/{version}"]!.get!.parameters!.map((p) => p.name)).toEqual([
      "serverName",
      "version",
    ]);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(["ServerList", "ServerResponse", "ServerDetail"]),
    );
    expect(names(doc, "/v0.1/servers")).toEqual(
      expect.arrayContaining(["cursor", "limit", "search", "updated_since", "version"]),
    );
  });
});

function names(doc: Doc, p: string) {
  return (doc.paths[p]!.get!.parameters ?? []).map((x) => x.name);
}
