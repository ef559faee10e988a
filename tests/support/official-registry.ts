// Validates answers against the official MCP Registry's schemas (vendored in official-registry/, see its README).
import fs from "node:fs";
import path from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

const dir = path.join(import.meta.dirname, "official-registry");
const load = (file: string) => JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));

// Ajv's default strictness: the generated schema relies on `required` inside anyOf branches (strictRequired off).
const ajv = new Ajv({ allErrors: true });
addFormats(ajv);
// OpenAPI's annotation keyword, used throughout the generated schema.
ajv.addKeyword("example");
ajv.addSchema(load("server.schema.json"));
ajv.addSchema(load("registry-api.schema.json"));

const API = "https://agora-mcp.dev/tests/official-registry/registry-api.schema.json";
const compiled = {
  serverJson: ajv.getSchema("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json")!,
  serverResponse: ajv.getSchema(`${API}#/definitions/ServerResponse`)!,
  serverList: ajv.getSchema(`${API}#/definitions/ServerList`)!,
};

function check(validate: ValidateFunction, data: unknown, what: string): void {
  if (!validate(data))
    throw new Error(
      `${what} does not match the official schema:\n${ajv.errorsText(validate.errors, { separator: "\n" })}`,
    );
}

export const officialSchema = {
  /** Throws with every schema error when `data` is not a valid server.json. */
  assertServerJson: (data: unknown) => check(compiled.serverJson, data, "server.json"),
  assertServerResponse: (data: unknown) => check(compiled.serverResponse, data, "ServerResponse"),
  assertServerList: (data: unknown) => check(compiled.serverList, data, "ServerList"),
  /** For tests that expect a failure: true when valid. */
  isServerJson: (data: unknown) => compiled.serverJson(data) as boolean,
};
