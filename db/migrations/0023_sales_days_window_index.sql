-- The listings with sales in the last 30 days and their usage, for the popular order: an index-only range over
-- the window's days (it covers the counts summed), not a scan of every day of every listing's history.
CREATE INDEX "listing_sales_days_day_idx" ON "listing_sales_days" USING btree ("day","listing_id","sales","last_buyers");