import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/errors";
import { route } from "@/lib/http/route";

// The one shell of every route handler (lib/http/route.ts): what a caller gets back for each way a request fails.
const echo = route(
  {
    name: "POST /echo",
    database: false,
    query: z.object({ n: z.coerce.number().int().optional() }),
    body: z.object({ text: z.string().min(1, "text is required.") }),
  },
  ({ query, body }) => Response.json({ n: query.n ?? null, text: body.text }),
);
const post = (body: string, type = "application/json", search = "") =>
  echo(new Request(`http://localhost/echo${search}`, { method: "POST", headers: { "content-type": type }, body }));

describe("route()", () => {
  it("hands the handler the parsed query and body", async () => {
    const res = await post(JSON.stringify({ text: "hi" }), "application/json", "?n=3");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ n: 3, text: "hi" });
  });

  it.each([
    ["a query the schema refuses", JSON.stringify({ text: "hi" }), "application/json", "?n=x", 400, "invalid_input"],
    ["another content type", "text=hi", "application/x-www-form-urlencoded", "", 415, "unsupported_media_type"],
    ["a body that is not JSON", "{text:", "application/json", "", 400, "invalid_json"],
    ["a body the schema refuses", JSON.stringify({ text: "" }), "application/json", "", 400, "invalid_input"],
    ["a body over 16 KB", JSON.stringify({ text: "x".repeat(17_000) }), "application/json", "", 413, "body_too_large"],
  ])("answers %s with its status and code", async (_label, body, type, search, status, code) => {
    const res = await post(body, type, search);
    expect(res.status).toBe(status);
    const answer = await res.json();
    expect(answer.code).toBe(code);
    expect(typeof answer.message).toBe("string");
  });

  it("names the refused field", async () => {
    expect(await (await post(JSON.stringify({ text: "" }))).json()).toEqual({
      code: "invalid_input",
      message: "text is required.",
      errors: { text: ["text is required."] },
    });
  });

  it("answers an ApiError with its status, code and headers, and anything else with a 500 that says nothing more", async () => {
    const refusing = route({ name: "GET /refuse", database: false }, () => {
      throw new ApiError(429, "Slow down.", { headers: { "Retry-After": "7" } });
    });
    const refused = await refusing(new Request("http://localhost/refuse"));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("7");
    expect(await refused.json()).toEqual({ code: "rate_limited", message: "Slow down." });

    const broken = route({ name: "GET /broken", database: false }, () => {
      throw new Error("select secret from users");
    });
    const res = await broken(new Request("http://localhost/broken"));
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      code: "internal_error",
      message: "Something went wrong on our side. Please try again.",
    });
  });

  it("lets a route answer failures in its own protocol's shape", async () => {
    const rpc = route(
      {
        name: "GET /rpc",
        database: false,
        failure: (error) =>
          Response.json(
            { error: { code: -32000, message: error.message, data: { code: error.code } } },
            { status: error.status },
          ),
      },
      () => {
        throw new ApiError(404, "Nothing here.");
      },
    );
    const res = await rpc(new Request("http://localhost/rpc"));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: -32000, message: "Nothing here.", data: { code: "not_found" } },
    });
  });

  it("resolves the dynamic segments Next hands as a promise", async () => {
    const one = route<undefined, undefined, undefined, { id: string }>(
      { name: "GET /x/[id]", database: false },
      ({ params }) => Response.json({ id: params.id }),
    );
    const res = await one(new Request("http://localhost/x/42"), { params: Promise.resolve({ id: "42" }) });
    expect(await res.json()).toEqual({ id: "42" });
  });

  it("checks the segments with the spec's params schema before any work: a 400 naming the field, or the 404 it names", async () => {
    let ran = 0;
    const byId = route(
      { name: "GET /x/[id]", database: false, params: z.object({ id: z.string().max(5, "id is too long.") }) },
      ({ params }) => (ran++, Response.json({ id: params.id })),
    );
    const ask = (id: string) => byId(new Request(`http://localhost/x/${id}`), { params: Promise.resolve({ id }) });
    expect(await (await ask("42")).json()).toEqual({ id: "42" });
    const long = await ask("123456");
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({
      code: "invalid_input",
      message: "id is too long.",
      errors: { id: ["id is too long."] },
    });

    // A schema may read the segments into what they name; one that names nothing is not there.
    const named = z.object({ path: z.array(z.string()) }).transform(({ path }, context) => {
      if (path.length === 2) return { owner: path[0]!, name: path[1]! };
      context.addIssue({ code: "custom", message: "names nothing" });
      return z.NEVER;
    });
    const byPath = route(
      { name: "GET /y/[...path]", database: false, params: { schema: named, notFound: "Nothing here." } },
      ({ params }) => (ran++, Response.json(params)),
    );
    const at = (path: string[]) => byPath(new Request("http://localhost/y"), { params: Promise.resolve({ path }) });
    expect(await (await at(["a", "b"])).json()).toEqual({ owner: "a", name: "b" });
    const missing = await at(["a", "b", "c"]);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ code: "not_found", message: "Nothing here." });
    expect(ran).toBe(2);
  });
});
