import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type * as schema from "./schema";

/** Either driver's database: PGlite and postgres-js share the pg-core query builder. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
