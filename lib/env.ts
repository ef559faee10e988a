// The one place that reads process.env on the server: every variable is validated with zod at start-up.
import { z } from "zod";

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();
const optionalUrl = optionalString.pipe(z.url().optional());
const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: optionalString.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
        .optional(),
    ),
    PGLITE_DIR: z.string().trim().min(1).default(".data/pglite"),
    SITE_URL: optionalUrl,
    NEXT_PUBLIC_POSTHOG_KEY: optionalString,
    NEXT_PUBLIC_POSTHOG_HOST: optionalUrl,
    MAILCHIMP_API_KEY: optionalString,
    MAILCHIMP_AUDIENCE_ID: optionalString,
    // Defaults to https://{dc}.api.mailchimp.com/3.0 from the key's data-centre suffix; tests point it at a fake.
    MAILCHIMP_API_BASE: optionalUrl,
    RATE_LIMIT_DISABLED: flag,
    // Lets the probe reach loopback and private-network hosts (tests, local development).
    PROBE_ALLOW_PRIVATE_HOSTS: flag,
  })
  .superRefine((env, ctx) => {
    if (env.MAILCHIMP_API_KEY && !env.MAILCHIMP_AUDIENCE_ID) {
      ctx.addIssue({ code: "custom", path: ["MAILCHIMP_AUDIENCE_ID"], message: "is required when MAILCHIMP_API_KEY is set" });
    }
    if (env.MAILCHIMP_API_KEY && !env.MAILCHIMP_API_BASE && !/-[a-z0-9]+$/.test(env.MAILCHIMP_API_KEY)) {
      ctx.addIssue({ code: "custom", path: ["MAILCHIMP_API_KEY"], message: "must end in its data-centre suffix, e.g. -us21" });
    }
    if (env.NODE_ENV === "production" && env.RATE_LIMIT_DISABLED && !process.env.CI && !process.env.E2E) {
      ctx.addIssue({ code: "custom", path: ["RATE_LIMIT_DISABLED"], message: "may not be set in production" });
    }
    // A production probe that may reach private hosts would let any submitter scan the internal network.
    if (env.NODE_ENV === "production" && env.PROBE_ALLOW_PRIVATE_HOSTS && !process.env.CI && !process.env.E2E) {
      ctx.addIssue({ code: "custom", path: ["PROBE_ALLOW_PRIVATE_HOSTS"], message: "may not be set in production" });
    }
  });

export type Env = z.infer<typeof schema>;

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".") || "(env)"}: ${i.message}`);
    throw new Error(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: Env | undefined;

/** Validated environment; throws on first use with the name of every bad variable. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Re-reads process.env (tests change variables between cases). */
export function reloadEnv(): Env {
  cached = undefined;
  return env();
}
