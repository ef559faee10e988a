CREATE TABLE "listing_probes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"listing_id" uuid NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reachable" boolean NOT NULL,
	"protocol_version" text,
	"server_name" text,
	"server_version" text,
	"tools" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"priced_items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"payment_methods" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"latency_ms" integer,
	"error" text,
	"quirks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"verifiable" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "listing_probes" ADD CONSTRAINT "listing_probes_listing_id_listings_id_fk" FOREIGN KEY ("listing_id") REFERENCES "public"."listings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "listing_probes_listing_checked_idx" ON "listing_probes" USING btree ("listing_id","checked_at" DESC NULLS LAST);