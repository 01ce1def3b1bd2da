-- The next free document number of a kind ('quote': Q-0001..., 'invoice': INV-0001...), taken
-- inside the transaction that creates the document. The tenant's counter row is locked (the
-- upsert) until that transaction ends, so concurrent creations queue on it and each gets its
-- own number; a rollback gives the number back, a commit moves the counter past it for good.
-- Numbers an import already used (an imported Q-0007) are skipped, 32 candidates a lookup.
-- One round trip for the app (docs/decisions/121, 450).
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION document_next_number(p_tenant uuid, p_kind text) RETURNS text
 LANGUAGE plpgsql AS $fn$
DECLARE
  v_prefix text := CASE p_kind WHEN 'quote' THEN 'Q-' WHEN 'invoice' THEN 'INV-' END;
  v_from bigint;
  v_candidates text[];
  v_taken text[];
  v_free int;
BEGIN
  IF v_prefix IS NULL THEN RAISE EXCEPTION 'document_next_number: unknown kind %', p_kind; END IF;
  INSERT INTO document_counters (tenant_id, kind, next_value) VALUES (p_tenant, p_kind, 1)
  ON CONFLICT (tenant_id, kind) DO UPDATE SET next_value = document_counters.next_value
  RETURNING next_value INTO v_from;
  LOOP
    -- As the app formats them: at least four digits, never cut.
    v_candidates := ARRAY(SELECT v_prefix || CASE WHEN length(n::text) < 4 THEN lpad(n::text, 4, '0') ELSE n::text END
                            FROM generate_series(v_from, v_from + 31) n ORDER BY n);
    IF p_kind = 'quote' THEN
      v_taken := ARRAY(SELECT number FROM quotes WHERE tenant_id = p_tenant AND number = ANY (v_candidates));
    ELSE
      v_taken := ARRAY(SELECT number FROM invoices WHERE tenant_id = p_tenant AND number = ANY (v_candidates));
    END IF;
    SELECT min(i) INTO v_free FROM generate_subscripts(v_candidates, 1) i WHERE NOT (v_candidates[i] = ANY (v_taken));
    IF v_free IS NOT NULL THEN
      UPDATE document_counters SET next_value = v_from + v_free WHERE tenant_id = p_tenant AND kind = p_kind;
      RETURN v_candidates[v_free];
    END IF;
    v_from := v_from + 32;
  END LOOP;
END
$fn$;
