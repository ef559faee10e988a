ALTER TABLE "listings" ALTER COLUMN "price" SET DATA TYPE numeric(15, 6);--> statement-breakpoint
ALTER TABLE "listing_probes" ADD COLUMN "error_class" text;--> statement-breakpoint
ALTER TABLE "listing_probes" ADD COLUMN "http_status" integer;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;