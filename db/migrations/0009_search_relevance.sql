CREATE SEQUENCE "public"."catalogue_version" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "search_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_words_trgm_idx" ON "search_words" USING gin ("word" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "listings_name_trgm_idx" ON "listings" USING gin (lower("name") gin_trgm_ops) WHERE "listings"."status" = 'approved';--> statement-breakpoint-- The search cache keys results by this sequence: any write to what a search result shows bumps it.
CREATE FUNCTION "bump_catalogue_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('public.catalogue_version');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "listings_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "listings" FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();--> statement-breakpoint
CREATE TRIGGER "listing_probes_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "listing_probes" FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();--> statement-breakpoint
CREATE TRIGGER "listing_drift_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "listing_drift" FOR EACH STATEMENT EXECUTE FUNCTION "bump_catalogue_version"();--> statement-breakpoint
-- The typo vocabulary: the words of every listing's search text (db/schema.ts searchWords).
CREATE FUNCTION "collect_search_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "search_words" ("word")
    SELECT DISTINCT w FROM regexp_split_to_table(NEW."search_text", '[^[:alnum:]_]+') AS w
    WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "listings_search_words" AFTER INSERT OR UPDATE OF "search_text" ON "listings" FOR EACH ROW EXECUTE FUNCTION "collect_search_words"();--> statement-breakpoint
INSERT INTO "search_words" ("word")
  SELECT DISTINCT w FROM "listings", regexp_split_to_table("search_text", '[^[:alnum:]_]+') AS w
  WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
ON CONFLICT DO NOTHING;
