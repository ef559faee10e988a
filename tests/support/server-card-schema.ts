// Validates server cards against SEP-2127's schema (vendored in tests/fixtures/server-card, see its README).
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const schema = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, "../fixtures/server-card/server-card.schema.json"), "utf8"),
);
const ajv = new Ajv2020({ allErrors: true });
addFormats(ajv);
// The file holds only $defs; the card is #/$defs/ServerCard.
ajv.addSchema(schema, "server-card");
const validate = ajv.getSchema("server-card#/$defs/ServerCard")!;

export const serverCardSchema = {
  /** Throws with every schema error when `data` is not a valid server card. */
  assertCard(data: unknown): void {
    if (!validate(data))
      throw new Error(`not a valid server card:\n${ajv.errorsText(validate.errors, { separator: "\n" })}`);
  },
  /** For tests that expect a failure: true when valid. */
  isCard: (data: unknown) => validate(data) as boolean,
};
