// The one schema for a server submission: the submit form (zodResolver), the server action and
// POST /api/mcp-agents all parse with it, so every boundary gives the same messages.
import { z } from "zod";
import { splitCategories } from "@/lib/categories";
import { paidToolNamesSchema, requireReadPricesConsent } from "./paid-tools";

export const MAX_CATEGORIES = 5;
export const MAX_CATEGORY_LENGTH = 40;
export const TOO_MANY_CATEGORIES = `You can only have up to ${MAX_CATEGORIES} categories`;
const INVALID_URL = "Please enter a valid URL.";

// Control characters never belong in a listing (and NUL cannot be stored); newlines only in descriptions.
const singleLine = (v: string) => v.replace(/[\u0000-\u001f\u007f]/g, " ").trim();
const multiLine = (v: string) =>
  v
    .replace(/\r\n?/g, "\n")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, " ")
    .trim();

/** An absolute http(s) URL with a real host name; deployment rules (https, public hosts) are checked server-side. */
const httpUrl = z
  .string()
  .max(2048, INVALID_URL)
  .pipe(z.url({ protocol: /^https?$/, hostname: z.regexes.hostname, error: INVALID_URL }));

const submissionFields = z.object({
  name: z
    .string({ error: "Please enter a name." })
    .transform(singleLine)
    .pipe(z.string().min(1, "Please enter a name.").max(100, "Name must be under 100 characters.")),
  description: z
    .string({ error: "Description is too short — minimum 10 characters." })
    .transform(multiLine)
    .pipe(
      z
        .string()
        .min(10, "Description is too short — minimum 10 characters.")
        .max(1000, "Description is too long — maximum 1000 characters."),
    ),
  mcpServerUrl: z
    .string({ error: "Please enter a MCP Server URL." })
    .trim()
    .min(1, "Please enter a MCP Server URL.")
    .pipe(httpUrl),
  websiteUrl: z
    .string()
    .trim()
    .nullish()
    .transform((v) => v || null)
    .pipe(httpUrl.nullable()),
  // The form holds a list; the API sends the spec's one comma-joined string. Both arrive as a list.
  categories: z
    .union([z.string(), z.array(z.string())], { error: "Categories must be a list or a comma-separated string." })
    .optional()
    .transform((v) => splitCategories((typeof v === "string" ? v.split(",") : (v ?? [])).map(singleLine)))
    .pipe(
      z
        .array(z.string().max(MAX_CATEGORY_LENGTH, `Each category must be under ${MAX_CATEGORY_LENGTH} characters.`))
        .max(MAX_CATEGORIES, TOO_MANY_CATEGORIES),
    ),
  // "Which tools charge?": tools the owner names as paid, read by calling each unpaid, which needs their consent.
  paidTools: paidToolNamesSchema.optional().default([]),
  readPricesConsent: z.boolean({ error: "readPricesConsent must be true or false." }).optional().default(false),
});

export const serverSubmissionSchema = submissionFields.superRefine(requireReadPricesConsent);

export type ServerSubmissionValues = z.input<typeof serverSubmissionSchema>;
export type ServerSubmission = z.output<typeof serverSubmissionSchema>;

/** What the form's "Read the server's tools" button sends: the URL, checked as a submission checks it. */
export const toolListRequestSchema = submissionFields.pick({ mcpServerUrl: true });
