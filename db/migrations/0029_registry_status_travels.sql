-- Registries that agree: a listing's registry status (active, deprecated, deleted) and the moment it changed travel
-- through /v0.1; an imported entry keeps the server.json its upstream gave (packages, repository, version, dates,
-- _meta), every version ingestion saw, and the chain of registries it came through.
CREATE TABLE "upstream_versions" (
	"source_key" text NOT NULL,
	"upstream_name" text NOT NULL,
	"version" text NOT NULL,
	"published_at" timestamp with time zone,
	"server" jsonb NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "upstream_versions_source_key_upstream_name_version_pk" PRIMARY KEY("source_key","upstream_name","version")
);
--> statement-breakpoint
ALTER TABLE "ingested_servers" ADD COLUMN "upstream_server" jsonb;--> statement-breakpoint
ALTER TABLE "ingested_servers" ADD COLUMN "provenance" jsonb;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "upstream_server" jsonb;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "provenance" jsonb;--> statement-breakpoint
-- Every change of status (approved, rejected, pending) or upstream status (active, deprecated, deleted) moves
-- updated_at and status_changed_at, whichever code path made it: an incremental reader of /v0.1 (updated_since)
-- must see a removal or a deprecation, and no writer can forget to tell it.
CREATE FUNCTION "listings_status_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status OR NEW.upstream_status IS DISTINCT FROM OLD.upstream_status THEN
    NEW.status_changed_at := now();
    NEW.updated_at := greatest(now(), NEW.updated_at);
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "listings_status_moved" BEFORE UPDATE OF "status", "upstream_status" ON "listings" FOR EACH ROW EXECUTE FUNCTION "listings_status_moved"();
