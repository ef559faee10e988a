CREATE TABLE "ingest_sources" (
	"key" text PRIMARY KEY NOT NULL,
	"high_water_mark" timestamp with time zone,
	"cursor" text,
	"run_started_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"last_counts" jsonb,
	"last_errors" jsonb DEFAULT '[]'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ingested_servers" (
	"remote_url" text PRIMARY KEY NOT NULL,
	"source_key" text NOT NULL,
	"upstream_name" text NOT NULL,
	"version" text,
	"title" text,
	"description" text DEFAULT '' NOT NULL,
	"repository_url" text,
	"website_url" text,
	"status" text DEFAULT 'active' NOT NULL,
	"upstream_updated_at" timestamp with time zone,
	"last_checked_at" timestamp with time zone,
	"next_check_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text,
	"listing_id" uuid
);
--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "source" text DEFAULT 'agora' NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "upstream_name" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "upstream_url" text;--> statement-breakpoint
ALTER TABLE "ingested_servers" ADD CONSTRAINT "ingested_servers_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ingested_servers_due_idx" ON "ingested_servers" USING btree ("next_check_at");