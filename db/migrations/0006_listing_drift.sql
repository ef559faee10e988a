CREATE TYPE "public"."drift_kind" AS ENUM('price', 'wallet', 'tools');--> statement-breakpoint
CREATE TABLE "listing_drift" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid NOT NULL,
	"probe_id" uuid,
	"kind" "drift_kind" NOT NULL,
	"subject" text NOT NULL,
	"approved" text NOT NULL,
	"found" text NOT NULL,
	"detected_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "approved_terms" jsonb;--> statement-breakpoint
ALTER TABLE "listing_drift" ADD CONSTRAINT "listing_drift_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "listing_drift" ADD CONSTRAINT "listing_drift_probe_id_listing_probes_id_fk" FOREIGN KEY ("probe_id") REFERENCES "public"."listing_probes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_drift_listing_idx" ON "listing_drift" USING btree ("listing_id","detected_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "listing_drift_change_key" ON "listing_drift" USING btree ("listing_id","kind",md5("subject" || chr(31) || "approved" || chr(31) || "found"));