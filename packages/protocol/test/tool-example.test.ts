// Arguments made from a tool's input schema: they must satisfy the schema (checked with Ajv, as the MCP SDK
// checks arguments), and where the schema asks for what cannot be made up safely there is no example at all.
import Ajv from "ajv";
import { describe, expect, it } from "vitest";
import { exampleArguments } from "@agora-mcp/protocol";

const ajv = new Ajv({ strict: false });
const object = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: "object",
  properties,
  required,
});

describe("exampleArguments", () => {
  it.each([
    [
      "a kit tool: hints name the example",
      object({ city: { type: "string", minLength: 1, maxLength: 4000, description: "Example: Lisbon" } }),
      { city: "Lisbon" },
    ],
    [
      "a hint that is no example",
      object({ text: { type: "string", description: "The text to count" } }),
      { text: "example" },
    ],
    [
      "the provider's own example first",
      object({ q: { type: "string", examples: ["solar"], description: "Example: wind" } }),
      { q: "solar" },
    ],
    [
      "enum, const, boolean",
      object({ unit: { enum: ["C", "F"] }, v: { const: 2 }, loud: { type: "boolean" } }),
      { unit: "C", v: 2, loud: false },
    ],
    [
      "numbers in range",
      object({ n: { type: "integer", minimum: 3, maximum: 9 }, x: { type: "number", exclusiveMinimum: 0.5 } }),
      { n: 3, x: 2 },
    ],
    ["a long minimum length", object({ id: { type: "string", minLength: 12 } }), { id: "xxxxxxxxxxxx" }],
    ["a known format", object({ url: { type: "string", format: "uri" } }), { url: "https://example.com" }],
    [
      "nested objects and arrays",
      object({
        where: object({ lat: { type: "number" } }),
        tags: { type: "array", items: { type: "string" }, minItems: 2 },
      }),
      { where: { lat: 1 }, tags: ["example", "example"] },
    ],
    [
      "optional parameters left out",
      object({ city: { type: "string" }, days: { type: "integer" } }, ["city"]),
      { city: "example" },
    ],
    ["no parameters", { type: "object", properties: {} }, {}],
  ])("%s", (_, schema, expected) => {
    const args = exampleArguments(schema);
    expect(args).toEqual(expected);
    expect(ajv.validate(schema, args), ajv.errorsText()).toBe(true);
  });

  it.each([
    ["a pattern", object({ id: { type: "string", pattern: "^[0-9]{4}$" } })],
    ["a combinator", object({ v: { anyOf: [{ type: "string" }, { type: "number" }] } })],
    ["a reference", object({ v: { $ref: "#/definitions/x" } })],
    ["an unknown format", object({ when: { type: "string", format: "duration" } })],
    ["a required name without a schema", { type: "object", properties: {}, required: ["ghost"] }],
    ["a range nothing fits", object({ n: { type: "integer", minimum: 1.2, maximum: 1.8 } })],
    ["not an object schema", { type: "string" }],
  ])("makes none for %s", (_, schema) => {
    expect(exampleArguments(schema)).toBeUndefined();
  });
});
