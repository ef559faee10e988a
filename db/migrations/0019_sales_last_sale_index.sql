-- A listing's last sale is one index entry (its exact order, ties included), not a sort of all its sales.
DROP INDEX "listing_sales_listing_time_idx";--> statement-breakpoint
CREATE INDEX "listing_sales_listing_last_idx" ON "listing_sales" USING btree ("listing_id","block_time" DESC NULLS LAST,"block_number" DESC NULLS LAST,"log_index" DESC NULLS LAST);