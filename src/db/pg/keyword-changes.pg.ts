/**
 * Step 20 on PostgreSQL (a no-op on SQLite, whose change log is the process' own): which of
 * a tenant's nodes changed in the keyword index, and in which transaction. The keyword
 * trigger appends a row for every node it indexes, re-indexes or removes; every process
 * keeping postings in memory reads the rows of transactions at or past its horizon (the
 * oldest transaction still running at its last read, `pg_snapshot_xmin`), so a write is
 * taken in once it commits, whatever the order transactions commit in. Before this log,
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
CREATE OR REPLACE FUNCTION rz_keywords_stats() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    INSERT INTO keyword_stats AS s (tenant_id, docs, total_len) VALUES (OLD.tenant_id, -1, -OLD.len)
      ON CONFLICT (tenant_id) DO UPDATE SET docs = s.docs - 1, total_len = s.total_len - OLD.len;
    INSERT INTO keyword_terms AS k (tenant_id, term, df)
      SELECT OLD.tenant_id, t, -1 FROM jsonb_object_keys(OLD.tf) t ORDER BY t COLLATE "C"
      ON CONFLICT (tenant_id, term) DO UPDATE SET df = k.df - 1;
    INSERT INTO keyword_changes (tenant_id, seq) VALUES (OLD.tenant_id, OLD.seq);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO keyword_stats AS s (tenant_id, docs, total_len) VALUES (NEW.tenant_id, 1, NEW.len)
      ON CONFLICT (tenant_id) DO UPDATE SET docs = s.docs + 1, total_len = s.total_len + NEW.len;
    INSERT INTO keyword_terms AS k (tenant_id, term, df)
      SELECT NEW.tenant_id, t, 1 FROM jsonb_object_keys(NEW.tf) t ORDER BY t COLLATE "C"
      ON CONFLICT (tenant_id, term) DO UPDATE SET df = k.df + 1;
    IF TG_OP = 'INSERT' OR OLD.seq <> NEW.seq OR OLD.tenant_id <> NEW.tenant_id THEN
      INSERT INTO keyword_changes (tenant_id, seq) VALUES (NEW.tenant_id, NEW.seq);
    END IF;
  END IF;
  RETURN NULL;
END $fn$;
`;
