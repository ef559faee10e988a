// npm run db:migrate — applies migrations to DATABASE_URL, or to the embedded database in PGLITE_DIR.
import { env } from "@/lib/env";
import { openDatabase } from "@/db/connect";

const { DATABASE_URL, PGLITE_DIR } = env();
const conn = await openDatabase({ databaseUrl: DATABASE_URL, pgliteDir: PGLITE_DIR });
console.log(`Migrations applied (${conn.driver === "postgres" ? "PostgreSQL server" : `embedded database in ${PGLITE_DIR}`}).`);
await conn.close();
