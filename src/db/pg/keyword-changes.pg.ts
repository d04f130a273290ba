/**
 * Step 20 on PostgreSQL (a no-op on SQLite, whose change log is the process' own): which of
 * a tenant's nodes changed in the keyword index, and in which transaction. A trigger beside
 * the statistics' appends a row for every node indexed, re-indexed or removed; every process
 * keeping postings in memory reads the rows of transactions its last read could not see
 * (`pg_visible_in_snapshot`), so a write is taken in once it commits, whatever the order
 * transactions commit in. `rhizome migrate --to` fills node_keywords with it off. Before this log,
 * a term's postings were read again in full whenever any node holding it changed: under
 * writes, most of a query's terms, 10-20 ms a query at 2,000 notes. Rows are deleted
 * fifteen minutes after they were written, once their transaction has ended
 * (repos/pg/keyword-source.pg.ts).
 */
export const PG_KEYWORD_CHANGES = `
CREATE TABLE keyword_changes (
  tenant_id text NOT NULL,
  seq       bigint NOT NULL,
  xid       xid8 NOT NULL DEFAULT pg_current_xact_id(),
  at        timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX keyword_changes_tenant ON keyword_changes (tenant_id, xid);
CREATE FUNCTION rz_keywords_log() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO keyword_changes (tenant_id, seq) VALUES (OLD.tenant_id, OLD.seq);
  END IF;
  IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (OLD.seq <> NEW.seq OR OLD.tenant_id <> NEW.tenant_id)) THEN
    INSERT INTO keyword_changes (tenant_id, seq) VALUES (NEW.tenant_id, NEW.seq);
  END IF;
  RETURN NULL;
END $fn$;
CREATE TRIGGER node_keywords_log AFTER INSERT OR DELETE OR UPDATE ON node_keywords
  FOR EACH ROW EXECUTE FUNCTION rz_keywords_log();
`;
