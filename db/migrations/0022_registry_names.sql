ALTER TABLE "ingested_servers" ADD COLUMN "categories" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "ingested_servers" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "registry_name" text;--> statement-breakpoint
CREATE UNIQUE INDEX "listings_registry_name_key" ON "listings" USING btree ("registry_name");--> statement-breakpoint
-- Imported registry entries keep the name they were listed under (their upstream name), once: a second listing of
-- the same name, or one copying the name of a listing submitted here ("dev.agora-mcp/<its slug>"), takes a suffix.
UPDATE "listings" AS l SET "registry_name" = CASE
    WHEN r.rn = 1 AND NOT EXISTS (
      SELECT 1 FROM "listings" o
      WHERE o."id" <> l."id" AND l."upstream_name" = 'dev.agora-mcp/' || o."slug"
        AND NOT (o."source" = 'mcp-registry' AND o."upstream_name" IS NOT NULL)
    ) THEN l."upstream_name"
    ELSE l."upstream_name" || '-' || substr(replace(l."id"::text, '-', ''), 1, 8)
  END
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "upstream_name" ORDER BY "created_at", "id") AS rn
  FROM "listings" WHERE "source" = 'mcp-registry' AND "upstream_name" IS NOT NULL
) AS r
WHERE l."id" = r."id";
