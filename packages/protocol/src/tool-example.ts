// Arguments that satisfy a tool's input schema: what the probe sends in an unpaid call of an x402-paid tool
// (which must get past the schema to answer PaymentRequired) and what discovery shows as the call's `example`.
// Schemas come from servers nobody vouches for, so only a plain subset of JSON Schema is understood; for anything
// else (patterns, combinators, references, unknown keywords) there is no example rather than a wrong one.

type Schema = Record<string, unknown>;

const UNDERSTOOD = new Set([
  "type",
  "description",
  "title",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "minItems",
  "maxItems",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "enum",
  "const",
  "default",
  "examples",
  "format",
  "$schema",
]);
const FORMATS: Record<string, string> = {
  uri: "https://example.com",
  url: "https://example.com",
  email: "user@example.com",
  date: "2025-01-01",
  "date-time": "2025-01-01T00:00:00Z",
};
const MAX_DEPTH = 4;
const MAX_PROPERTIES = 50;

const isSchema = (value: unknown): value is Schema =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** "Example: Lisbon" or "e.g. Lisbon" in a parameter's description names a value a person would pass. */
function hinted(description: unknown): string | undefined {
  if (typeof description !== "string") return undefined;
  return /^\s*(?:example:|e\.g\.?)\s*(.+?)\s*$/i.exec(description)?.[1];
}

function typeOf(schema: Schema): string | undefined {
  const type = schema.type;
  if (typeof type === "string") return type;
  if (Array.isArray(type)) return type.find((t) => t !== "null") as string | undefined;
  return isSchema(schema.properties) ? "object" : undefined;
}

function fitsString(value: string, schema: Schema): boolean {
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  const max = typeof schema.maxLength === "number" ? schema.maxLength : Infinity;
  return [...value].length >= min && [...value].length <= max;
}

function fitsNumber(value: number, schema: Schema, integer: boolean): boolean {
  if (integer && !Number.isInteger(value)) return false;
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  return (
    (typeof minimum !== "number" || value >= minimum) &&
    (typeof maximum !== "number" || value <= maximum) &&
    (typeof exclusiveMinimum !== "number" || value > exclusiveMinimum) &&
    (typeof exclusiveMaximum !== "number" || value < exclusiveMaximum)
  );
}

function exampleString(schema: Schema): string | undefined {
  const format = typeof schema.format === "string" ? FORMATS[schema.format] : undefined;
  if (schema.format !== undefined && format === undefined) return undefined;
  const candidates = [format, hinted(schema.description), "example"].filter((c): c is string => c !== undefined);
  const min = typeof schema.minLength === "number" ? schema.minLength : 0;
  if (!format && min > 7 && min <= 1_000) candidates.push("x".repeat(min));
  return candidates.find((c) => fitsString(c, schema));
}

function exampleNumber(schema: Schema, integer: boolean): number | undefined {
  const floor =
    typeof schema.minimum === "number"
      ? schema.minimum
      : typeof schema.exclusiveMinimum === "number"
        ? schema.exclusiveMinimum + 1
        : 1;
  const hint = Number(hinted(schema.description));
  return [hint, Math.ceil(floor), floor].find((n) => Number.isFinite(n) && fitsNumber(n, schema, integer));
}

/** A value valid against `schema`, or undefined when this cannot be sure of one. */
function exampleValue(schema: unknown, depth: number): unknown {
  if (!isSchema(schema) || depth > MAX_DEPTH) return undefined;
  if (Object.keys(schema).some((key) => !UNDERSTOOD.has(key))) return undefined;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.length > 0 ? schema.enum[0] : undefined;
  const type = typeOf(schema);
  // A value the provider wrote down is the best example, once it is of the declared type and in range.
  for (const given of [...(Array.isArray(schema.examples) ? schema.examples : []), schema.default]) {
    if (type === "string" && typeof given === "string" && fitsString(given, schema) && schema.format === undefined)
      return given;
    if (
      (type === "number" || type === "integer") &&
      typeof given === "number" &&
      fitsNumber(given, schema, type === "integer")
    )
      return given;
    if (type === "boolean" && typeof given === "boolean") return given;
  }
  switch (type) {
    case "string":
      return exampleString(schema);
    case "number":
    case "integer":
      return exampleNumber(schema, type === "integer");
    case "boolean":
      return false;
    case "object":
      return exampleObject(schema, depth);
    case "array": {
      const min = typeof schema.minItems === "number" ? schema.minItems : 0;
      if (min === 0) return [];
      if (min > 10) return undefined;
      const item = exampleValue(schema.items, depth + 1);
      return item === undefined ? undefined : Array.from({ length: min }, () => item);
    }
    default:
      return undefined;
  }
}

function exampleObject(schema: Schema, depth: number): Record<string, unknown> | undefined {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  if (
    required.length > MAX_PROPERTIES ||
    !required.every((name): name is string => typeof name === "string" && name in properties)
  )
    return undefined;
  const args: Record<string, unknown> = {};
  for (const name of required) {
    const value = exampleValue(properties[name], depth + 1);
    if (value === undefined) return undefined;
    args[name] = value;
  }
  return args;
}

/**
 * Arguments for a call of a tool with this input schema: every required parameter, from the provider's own
 * examples or "Example: …" hints where given. Undefined when the schema is not a plain object schema.
 */
export function exampleArguments(inputSchema: unknown): Record<string, unknown> | undefined {
  if (!isSchema(inputSchema) || typeOf(inputSchema) !== "object") return undefined;
  const value = exampleValue(inputSchema, 0);
  return isSchema(value) ? value : undefined;
}
