// npm run db:migrate — applies migrations to DATABASE_URL, or to the embedded database in PGLITE_DIR.
import { openConfiguredDatabase, settingsOrExit } from "./support/database";

const { PGLITE_DIR } = settingsOrExit();
const conn = await openConfiguredDatabase();
console.log(
  `Migrations applied (${conn.driver === "postgres" ? "PostgreSQL server" : `embedded database in ${PGLITE_DIR}`}).`,
);
await conn.close();
