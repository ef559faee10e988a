// The API description tells the truth: real answers of the routes, on a seeded database, each validated against
// the schema /api/openapi.json gives for that path, method and status, and every refusal's code among the ones the
// operation lists. ServerDetail is resolved to the vendored official server.json schema.
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setDatabase } from "@/lib/database";
import { seedSampleCatalogue } from "@/lib/sample-catalogue/seed";
import { GET as openapi } from "@/app/api/openapi.json/route";
import { GET as listAgents } from "@/app/api/mcp-agents/route";
import { GET as getAgent } from "@/app/api/mcp-agents/[id]/route";
import { GET as listServers } from "@/app/v0.1/servers/route";
import { GET as serverAt } from "@/app/v0.1/servers/[...path]/route";
import { GET as resources } from "@/app/discovery/resources/route";
import { GET as search } from "@/app/discovery/search/route";
import { GET as health } from "@/app/api/health/route";
import { POST as login } from "@/app/api/auth/login/route";
import { drivers, openTestDatabase, type TestConnection } from "../support/databases";

const DOC_ID = "https://agora.test/openapi.json";
type Operation = { responses: Record<string, unknown>; "x-error-codes": string[] };

async function describedDocument() {
  const doc = (await (await openapi(new Request("http://localhost/api/openapi.json"))).json()) as {
    paths: Record<string, Record<string, Operation>>;
  };
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const serverJson = JSON.parse(
    fs.readFileSync(path.join(import.meta.dirname, "../support/official-registry/server.schema.json"), "utf8"),
  ) as Record<string, unknown>;
  delete serverJson.$schema;
  ajv.addSchema(serverJson);
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const pointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
  /** Checks a real answer against the description; answers the problems (none when it matches). */
  return async (described: string, method: string, response: Response): Promise<string[]> => {
    const operation = doc.paths[described]?.[method];
    if (!operation) return [`${method} ${described} is not described`];
    const status = String(response.status);
    if (!operation.responses[status]) return [`${method} ${described} answered ${status}, which it does not describe`];
    const body = (await response.json()) as { code?: string };
    const validate = ajv.getSchema(
      `${DOC_ID}#/paths/${pointer(described)}/${method}/responses/${status}/content/${pointer("application/json")}/schema`,
    )!;
    const problems = validate(body) ? [] : [`${method} ${described} ${status}: ${ajv.errorsText(validate.errors)}`];
    if (response.status >= 400 && !operation["x-error-codes"].includes(body.code ?? ""))
      problems.push(`${method} ${described} answered code ${body.code}, not listed`);
    return problems;
  };
}

describe.each(drivers())("the API description against real answers on %s", (driver) => {
  let conn: TestConnection;
  let check: Awaited<ReturnType<typeof describedDocument>>;

  beforeAll(async () => {
    conn = await openTestDatabase(driver);
    setDatabase(conn);
    await seedSampleCatalogue(conn.db);
    check = await describedDocument();
  }, 120_000);
  afterAll(async () => conn?.close());

  const at = (url: string) => new Request(`http://localhost${url}`);
  const segments = <P>(params: P) => ({ params: Promise.resolve(params) });

  it("describes the listings API's answers and refusals", async () => {
    const list = await listAgents(at("/api/mcp-agents?limit=5"));
    const slug = ((await list.clone().json()) as { id: string }[])[0]!.id;
    const problems = [
      ...(await check("/api/mcp-agents", "get", list)),
      ...(await check("/api/mcp-agents", "get", await listAgents(at("/api/mcp-agents?limit=many")))),
      ...(await check("/api/mcp-agents", "get", await listAgents(at("/api/mcp-agents?cursor=nonsense")))),
      ...(await check(
        "/api/mcp-agents/{id}",
        "get",
        await getAgent(at(`/api/mcp-agents/${slug}`), segments({ id: slug })),
      )),
      ...(await check(
        "/api/mcp-agents/{id}",
        "get",
        await getAgent(at("/api/mcp-agents/nobody"), segments({ id: "nobody" })),
      )),
    ];
    expect(problems).toEqual([]);
  });

  it("describes the registry API's answers under the official names", async () => {
    const list = await listServers(at("/v0.1/servers?limit=3"));
    const name = ((await list.clone().json()) as { servers: { server: { name: string } }[] }).servers[0]!.server.name;
    const [namespace, server] = name.split("/");
    const problems = [
      ...(await check("/v0.1/servers", "get", list)),
      ...(await check("/v0.1/servers", "get", await listServers(at("/v0.1/servers?cursor=%%%")))),
      ...(await check(
        "/v0.1/servers/{serverName}/versions/{version}",
        "get",
        await serverAt(
          at(`/v0.1/servers/${name}/versions/latest`),
          segments({ path: [namespace!, server!, "versions", "latest"] }),
        ),
      )),
      ...(await check(
        "/v0.1/servers/{serverName}/versions",
        "get",
        await serverAt(at(`/v0.1/servers/${name}/versions`), segments({ path: [namespace!, server!, "versions"] })),
      )),
      ...(await check(
        "/v0.1/servers/{serverName}",
        "get",
        await serverAt(at("/v0.1/servers/io.nobody/none"), segments({ path: ["io.nobody", "none"] })),
      )),
    ];
    expect(problems).toEqual([]);
  });

  it("describes discovery, the operations routes and a refused body", async () => {
    const problems = [
      ...(await check("/discovery/resources", "get", await resources(at("/discovery/resources")))),
      ...(await check("/discovery/resources", "get", await resources(at("/discovery/resources?payTo=nope")))),
      ...(await check("/discovery/search", "get", await search(at("/discovery/search?query=weather")))),
      ...(await check("/api/health", "get", await health(at("/api/health")))),
      ...(await check(
        "/api/auth/login",
        "post",
        await login(
          new Request("http://localhost/api/auth/login", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ email: "not an address" }),
          }),
        ),
      )),
      ...(await check(
        "/api/auth/login",
        "post",
        await login(
          new Request("http://localhost/api/auth/login", {
            method: "POST",
            headers: { "content-type": "text/plain" },
            body: "{}",
          }),
        ),
      )),
    ];
    expect(problems).toEqual([]);
  });

  it("notices an answer the description does not allow", async () => {
    const wrong = Response.json({ status: "fine" });
    expect(await check("/api/health", "get", wrong)).not.toEqual([]);
    const undescribed = Response.json({ code: "nope", message: "x" }, { status: 418 });
    expect(await check("/api/health", "get", undescribed)).toEqual([
      "get /api/health answered 418, which it does not describe",
    ]);
  });
});
