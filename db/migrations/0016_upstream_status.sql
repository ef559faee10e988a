ALTER TABLE "listings" ADD COLUMN "upstream_status" text;--> statement-breakpoint
UPDATE "listings" SET "upstream_status" = CASE WHEN "status" = 'rejected' THEN 'deleted' ELSE 'active' END WHERE "source" <> 'agora';
