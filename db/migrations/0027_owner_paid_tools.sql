-- Tools an owner names as paid (servers whose tools/list says nothing about payment): each check calls them unpaid to
-- read their prices, which the owner agreed to at paid_tools_consented_at. Kept on the listing and on a pending edit.
ALTER TABLE "listing_edits" ADD COLUMN "paid_tools" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_edits" ADD COLUMN "paid_tools_consented_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "paid_tools" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "paid_tools_consented_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "listing_edits" ADD CONSTRAINT "listing_edits_paid_tools_bound" CHECK (cardinality("listing_edits"."paid_tools") <= 50);--> statement-breakpoint
ALTER TABLE "listing_edits" ADD CONSTRAINT "listing_edits_paid_tools_consent" CHECK (cardinality("listing_edits"."paid_tools") = 0 or "listing_edits"."paid_tools_consented_at" is not null);--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_paid_tools_bound" CHECK (cardinality("listings"."paid_tools") <= 50);--> statement-breakpoint
ALTER TABLE "listings" ADD CONSTRAINT "listings_paid_tools_consent" CHECK (cardinality("listings"."paid_tools") = 0 or "listings"."paid_tools_consented_at" is not null);