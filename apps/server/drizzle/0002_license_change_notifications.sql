-- Every change that validation depends on (a license's status, limit, node count, expiry; a node
-- added or removed) announces the license key on the channel license_changed, at commit. Instances
-- keep what validation needs in memory and drop a license when its key is announced; doing this in
-- the database means no code path (billing, account deletion, the vendor CLI, a hand-written
-- statement) can forget to. Last-seen and hostname updates of nodes do not announce anything.
CREATE FUNCTION "notify_license_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('license_changed', OLD.key);
  ELSE
    PERFORM pg_notify('license_changed', NEW.key);
    IF TG_OP = 'UPDATE' AND OLD.key IS DISTINCT FROM NEW.key THEN
      PERFORM pg_notify('license_changed', OLD.key);
    END IF;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "licenses_notify_change"
  AFTER INSERT OR DELETE OR UPDATE OF "key", "status", "max_nodes", "active_nodes", "expires_at" ON "licenses"
  FOR EACH ROW EXECUTE FUNCTION "notify_license_changed"();--> statement-breakpoint
CREATE FUNCTION "notify_license_nodes_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('license_changed', l.key) FROM "licenses" l WHERE l.id = OLD.license_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('license_changed', l.key) FROM "licenses" l WHERE l.id = NEW.license_id;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "nodes_notify_change"
  AFTER INSERT OR DELETE OR UPDATE OF "license_id", "fingerprint" ON "nodes"
  FOR EACH ROW EXECUTE FUNCTION "notify_license_nodes_changed"();
