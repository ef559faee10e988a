// The MCPB manifest, version 0.3, as its spec states it (github.com/modelcontextprotocol/mcpb, MANIFEST.md): the
// required fields, the server block and the user_config options a host renders. Strict: a key the spec does not
// name fails, as the host's validator would refuse it.
import { z } from "zod";

const semver = z.string().regex(/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/);
const url = z.url({ protocol: /^https?$/ });
const mcpConfig = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()).optional(),
});

const userConfigOption = z
  .strictObject({
    type: z.enum(["string", "number", "boolean", "directory", "file"]),
    title: z.string().min(1),
    description: z.string().min(1),
    required: z.boolean().optional(),
    default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
    multiple: z.boolean().optional(),
    sensitive: z.boolean().optional(),
    min: z.number().optional(),
    max: z.number().optional(),
  })
  .refine(
    (o) => o.default === undefined || (o.type === "boolean") === (typeof o.default === "boolean"),
    "a boolean option's default is a boolean, and only its",
  );

export const mcpbManifestSchema = z.strictObject({
  manifest_version: z.literal("0.3"),
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  display_name: z.string().optional(),
  version: semver,
  description: z.string().min(1),
  long_description: z.string().optional(),
  author: z.strictObject({ name: z.string().min(1), email: z.email().optional(), url: url.optional() }),
  repository: z.strictObject({ type: z.string(), url: z.string() }).optional(),
  homepage: url.optional(),
  documentation: url.optional(),
  support: url.optional(),
  icon: z.string().optional(),
  license: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  server: z.strictObject({
    type: z.enum(["node", "python", "binary", "uv"]),
    entry_point: z.string().min(1),
    mcp_config: mcpConfig,
  }),
  tools: z.array(z.strictObject({ name: z.string(), description: z.string().optional() })).optional(),
  tools_generated: z.boolean().optional(),
  prompts_generated: z.boolean().optional(),
  compatibility: z
    .strictObject({
      claude_desktop: z.string().optional(),
      platforms: z.array(z.enum(["darwin", "win32", "linux"])).optional(),
      runtimes: z.strictObject({ node: z.string().optional(), python: z.string().optional() }).optional(),
    })
    .optional(),
  user_config: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), userConfigOption).optional(),
});

export type McpbManifest = z.infer<typeof mcpbManifestSchema>;

/** Every `${user_config.KEY}` in the server's config names an option the manifest declares. */
export function undeclaredUserConfig(manifest: McpbManifest): string[] {
  const text = JSON.stringify(manifest.server.mcp_config);
  return [...text.matchAll(/\$\{user_config\.([^}]+)\}/g)]
    .map((m) => m[1]!)
    .filter((key) => !manifest.user_config?.[key]);
}

/**
 * The environment a host gives the client when every setting keeps its default (what the block sets): the host fills
 * `${user_config.…}` with each option's default and `${HOME}` with the home directory.
 */
export function defaultEnvOf(
  manifest: {
    server: { mcp_config: { env?: Record<string, string> } };
    user_config?: Record<string, { default?: unknown }>;
  },
  home: string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(manifest.server.mcp_config.env ?? {}).map(([name, value]) => [
      name,
      value
        .replace(/\$\{user_config\.([a-z_]+)\}/g, (_, key: string) =>
          String(manifest.user_config?.[key]?.default ?? ""),
        )
        .replace("${HOME}", home),
    ]),
  );
}
