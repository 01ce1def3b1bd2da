-- A new draft quote in one statement: its number (document_next_number, the counter row stays
-- locked until the transaction ends), the quote row, its lines in one multi-row insert and
-- the "created" line of its history. The app has checked and priced everything before
-- (customer, rates, figures): this only writes, so the counter is held for one statement and
-- the commit. Row-level security applies (the caller's tenant setting); the summaries'
-- triggers see the rows as from any insert. Keys of p_quote and p_items are column names.
-- The one current definition: db/functions.ts applies it when this file changes.
CREATE OR REPLACE FUNCTION quotes_create(p_quote jsonb, p_items jsonb, p_history jsonb)
 RETURNS TABLE (quote_id uuid, quote_number text) LANGUAGE plpgsql AS $fn$
DECLARE
  q quotes;
  v_user uuid := nullif(p_history->>'user_id', '')::uuid;
  v_name text := p_history->>'actor_name';
  v_count int;
BEGIN
  q := jsonb_populate_record(NULL::quotes, p_quote);
  q.id := gen_random_uuid();
  q.number := document_next_number(q.tenant_id, 'quote');
  INSERT INTO quotes (tenant_id, id, customer_id, number, title, status, issue_date, valid_until, currency, notes,
                      subtotal_cents, tax_cents, total_cents, discount_type, discount_percent, discount_amount_cents,
                      discount_cents, tax_exempt_reason, booking_request_id, property_id, deposit_percent, deposit_cents)
  VALUES (q.tenant_id, q.id, q.customer_id, q.number, q.title, 'draft', q.issue_date, q.valid_until, q.currency, q.notes,
          q.subtotal_cents, q.tax_cents, q.total_cents, q.discount_type, q.discount_percent, q.discount_amount_cents,
          q.discount_cents, q.tax_exempt_reason, q.booking_request_id, q.property_id, q.deposit_percent, q.deposit_cents);
  -- The lines return their rows (counted): on a Citus cluster an INSERT ... SELECT that returns
  -- nothing runs as a COPY, which row-level security refuses (docs/decisions/228-citus-run.md).
  WITH ins AS (
    INSERT INTO quote_items (tenant_id, id, quote_id, position, description, quantity, unit_price_cents, tax_rate,
                             tax_rate_id, line_total_cents, tax_cents, discount_cents, discount_type, discount_percent,
                             discount_amount_cents, option_name, optional)
    SELECT q.tenant_id, gen_random_uuid(), q.id, l.position, l.description, l.quantity, l.unit_price_cents, l.tax_rate,
           l.tax_rate_id, l.line_total_cents, l.tax_cents, l.discount_cents, l.discount_type, l.discount_percent,
           l.discount_amount_cents, l.option_name, coalesce(l.optional, false)
      FROM jsonb_populate_recordset(NULL::quote_items, p_items) l
    RETURNING 1
  ) SELECT count(*) INTO v_count FROM ins;
  IF v_name IS NULL AND v_user IS NOT NULL THEN
    SELECT u.name INTO v_name FROM users u WHERE u.tenant_id = q.tenant_id AND u.id = v_user;
  END IF;
  INSERT INTO record_history (tenant_id, record_type, record_id, action, summary, source, user_id, actor_name)
  VALUES (q.tenant_id, 'quote', q.id, 'created', left(p_history->>'summary', 500), p_history->>'source', v_user, v_name);
  RETURN QUERY SELECT q.id, q.number;
END
$fn$;
