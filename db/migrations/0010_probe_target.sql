ALTER TABLE "listing_probes" ADD COLUMN "server_url" text;--> statement-breakpoint
ALTER TABLE "listing_probes" ADD COLUMN "revision" integer;