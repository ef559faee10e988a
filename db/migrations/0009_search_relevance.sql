CREATE SEQUENCE "public"."catalogue_version" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE INDEX "listings_name_trgm_idx" ON "listings" USING gin (lower("name") gin_trgm_ops) WHERE "listings"."status" = 'approved';--> statement-breakpoint
-- The search cache keys results by this sequence: any write to what a search result shows bumps it.
CREATE FUNCTION "bump_catalogue_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('public.catalogue_version');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "listings_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "listings" FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();--> statement-breakpoint
CREATE TRIGGER "listing_probes_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "listing_probes" FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();--> statement-breakpoint
CREATE TRIGGER "listing_drift_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "listing_drift" FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();
