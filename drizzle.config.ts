import { defineConfig } from "drizzle-kit";

// Migrations are generated once and applied to both PGlite and PostgreSQL.
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema.ts",
  out: "./db/migrations",
});
