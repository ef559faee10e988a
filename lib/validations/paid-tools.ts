// The tools an owner names as paid ("Which tools charge?"): many paid MCP servers say nothing in tools/list about
// which tools cost money, and only an unpaid call of a paid tool tells its price. Agora calls a tool unpaid only when
// something says it is paid, so the owner's names (with their consent to those calls) are what lets it read them.
// One schema for the submit form, the edit form, the server actions and POST /api/mcp-agents.
import { z } from "zod";
import { MAX_OWNER_PAID_TOOLS, MAX_TOOL_NAME_LENGTH } from "@agora-mcp/protocol";

export const TOO_MANY_PAID_TOOLS = `Name at most ${MAX_OWNER_PAID_TOOLS} paid tools.`;
export const PAID_TOOL_NAME_EMPTY = "A paid tool's name cannot be empty.";
export const PAID_TOOL_NAME_TOO_LONG = `A paid tool's name must be at most ${MAX_TOOL_NAME_LENGTH} characters.`;
export const PAID_TOOL_NAME_CONTROL = "A paid tool's name cannot contain control characters (such as a NUL byte).";
export const PAID_TOOL_NAME_CHARACTERS =
  'A paid tool\'s name may hold only letters, digits, "_", "-", ".", "/" and ":".';
export const PAID_TOOL_NAMED_TWICE = "Each paid tool may be named only once.";
export const CONSENT_REQUIRED =
  "To name paid tools, agree that Agora reads each one's price by calling it unpaid (readPricesConsent: true).";

// MCP's naming guidance (letters, digits, "_", "-", ".") plus the "/" and ":" of namespaced tools, in any script:
// no spaces, quotes or markup, so a name is never anything but a name wherever it is shown.
const TOOL_NAME = /^[\p{L}\p{N}_.\-/:]+$/u;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const paidToolNameSchema = z
  .string({ error: "Each paid tool is named by a string." })
  .min(1, PAID_TOOL_NAME_EMPTY)
  .max(MAX_TOOL_NAME_LENGTH, PAID_TOOL_NAME_TOO_LONG)
  .refine((name) => !CONTROL.test(name), { message: PAID_TOOL_NAME_CONTROL, abort: true })
  .regex(TOOL_NAME, PAID_TOOL_NAME_CHARACTERS);

export const paidToolNamesSchema = z
  .array(paidToolNameSchema, { error: "paidTools must be a list of tool names." })
  .max(MAX_OWNER_PAID_TOOLS, TOO_MANY_PAID_TOOLS)
  .superRefine((names, ctx) => {
    const seen = new Set<string>();
    names.forEach((name, index) => {
      if (seen.has(name)) ctx.addIssue({ code: "custom", message: PAID_TOOL_NAMED_TWICE, path: [index] });
      seen.add(name);
    });
  });

/** Why a name from a server's tools/list cannot be named as paid, or null when it can (the form's checklist). */
export function paidToolNameProblem(name: string): string | null {
  const parsed = paidToolNameSchema.safeParse(name);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? PAID_TOOL_NAME_CHARACTERS);
}

/** The consent rule: names only with `readPricesConsent: true` (the message goes on the consent box). */
export function requireReadPricesConsent(
  value: { paidTools: string[]; readPricesConsent: boolean },
  ctx: z.RefinementCtx,
): void {
  if (value.paidTools.length > 0 && value.readPricesConsent !== true)
    ctx.addIssue({ code: "custom", message: CONSENT_REQUIRED, path: ["readPricesConsent"] });
}
