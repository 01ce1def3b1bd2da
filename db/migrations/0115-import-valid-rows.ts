import type { Migration } from "../migrate";

/**
 * "Import only the valid rows" of a preview with errors (docs/decisions/250):
 * - import_run_data keeps two more kinds of chunk for a preview with errors: `valid` (the rows
 *   that can be imported on their own, as shown) and `left_out` (the other rows, whole, with
 *   their errors: the CSV to fix); `records` may now hold the valid rows' records of such a
 *   preview (a commit still refuses a preview with errors);
 * - import_runs.importable_count: how many rows of a preview with errors can be imported on
 *   their own; left_out_count: on a preview made of the valid rows, how many rows were left out.
 */
export const up: Migration = async ({ context: sql }) => {
  await sql.query(`
    ALTER TABLE import_run_data DROP CONSTRAINT import_run_data_kind_check;
    ALTER TABLE import_run_data ADD CONSTRAINT import_run_data_kind_check
        CHECK (kind IN ('rows', 'invalid', 'errors', 'records', 'valid', 'left_out'));
    ALTER TABLE import_runs
      ADD COLUMN importable_count integer CONSTRAINT import_runs_importable_count_check CHECK (importable_count >= 0),
      ADD COLUMN left_out_count integer CONSTRAINT import_runs_left_out_count_check CHECK (left_out_count >= 0);
  `);
};

export const down: Migration = async ({ context: sql }) => {
  await sql.query(`
    DELETE FROM import_run_data WHERE kind IN ('valid', 'left_out');
    ALTER TABLE import_runs DROP COLUMN importable_count, DROP COLUMN left_out_count;
    ALTER TABLE import_run_data DROP CONSTRAINT import_run_data_kind_check;
    ALTER TABLE import_run_data ADD CONSTRAINT import_run_data_kind_check CHECK (kind IN ('rows', 'invalid', 'errors', 'records'));
  `);
};
