import type { MigrationModule } from "../migrate";
import * as m0001 from "./0001-foundation";
import * as m0002 from "./0002-records";
import * as m0003 from "./0003-import-runs";
import * as m0004 from "./0004-back-office";
import * as m0005 from "./0005-portal";
import * as m0006 from "./0006-offline-sync";
import * as m0007 from "./0007-billing";
import * as m0008 from "./0008-tenant-settings";
import * as m0009 from "./0009-row-level-security";
import * as m0010 from "./0010-emails-per-tenant";
import * as m0011 from "./0011-cleanup";
import * as m0012 from "./0012-billing-raw-body";
import * as m0013 from "./0013-work-leases";
import * as m0014 from "./0014-time-entry-span";
import * as m0020 from "./0020-history-and-numbering";
import * as m0021 from "./0021-quote-builder";
import * as m0022 from "./0022-document-date-order";
import * as m0025 from "./0025-office-records";
import * as m0030 from "./0030-schedule";
import * as m0040 from "./0040-import-mapping";
import * as m0050 from "./0050-messages";
import * as m0051 from "./0051-reminders";
import * as m0060 from "./0060-quote-choices";
import * as m0070 from "./0070-report-indexes";
import * as m0071 from "./0071-dashboard-figures";
import * as m0080 from "./0080-distributable-schema";
import * as m0081 from "./0081-distribute-on-citus";
import * as m0082 from "./0082-brand-colour";
import * as m0083 from "./0083-cleanup-messages";
import * as m0084 from "./0084-field-clock";
import * as m0087 from "./0087-job-photos";
import * as m0096 from "./0096-login-emails-by-the-app";
import * as m0097 from "./0097-citus-query-shapes";
import * as m0098 from "./0098-citus-field-signature";
import * as m0105 from "./0105-refresh-statistics";
import * as m0115 from "./0115-import-valid-rows";
import * as m0130 from "./0130-visits";
import * as m0150 from "./0150-crew-clocks";
import * as m0151 from "./0151-visit-report-indexes";
import * as m0170 from "./0170-list-unsubscribe";
import * as m0190 from "./0190-account-exports";
import * as m0200 from "./0200-job-items-billing";
import * as m0210 from "./0210-prices";
import * as m0220 from "./0220-timesheets";
import * as m0230 from "./0230-document-properties";
import * as m0260 from "./0260-summaries";
import * as m0270 from "./0270-imported-tax-rates";
import * as m0280 from "./0280-company-logos";
import * as m0285 from "./0285-visit-insert-keys";
import * as m0310 from "./0310-jobs-per-visit";
import * as m0320 from "./0320-billing-event-facts";
import * as m0370 from "./0370-jobs-waiting";
import * as m0380 from "./0380-customers-figure";
import * as m0381 from "./0381-dashboard-indexes-under-rls";
import * as m0390 from "./0390-visit-trigger-arguments";
import * as m0391 from "./0391-board-changes";
import * as m0395 from "./0395-owed-by-due-date";
import * as m0396 from "./0396-open-work-figures";

/**
 * Every migration, in order. Listed by hand (not globbed) so the compiled server bundle
 * carries them. Add new ones with the next number; row-level security stays last, as it
 * covers every tenant table the migrations before it made.
 */
export const MIGRATIONS: Array<[string, MigrationModule]> = [
  ["0001-foundation", m0001],
  ["0002-records", m0002],
  ["0003-import-runs", m0003],
  ["0004-back-office", m0004],
  ["0005-portal", m0005],
  ["0006-offline-sync", m0006],
  ["0007-billing", m0007],
  ["0008-tenant-settings", m0008],
  ["0009-row-level-security", m0009],
  ["0010-emails-per-tenant", m0010],
  ["0011-cleanup", m0011],
  ["0012-billing-raw-body", m0012],
  ["0013-work-leases", m0013],
  ["0014-time-entry-span", m0014],
  ["0020-history-and-numbering", m0020],
  ["0021-quote-builder", m0021],
  ["0022-document-date-order", m0022],
  ["0025-office-records", m0025],
  ["0030-schedule", m0030],
  ["0040-import-mapping", m0040],
  ["0050-messages", m0050],
  ["0051-reminders", m0051],
  ["0060-quote-choices", m0060],
  ["0070-report-indexes", m0070],
  ["0071-dashboard-figures", m0071],
  ["0080-distributable-schema", m0080],
  ["0081-distribute-on-citus", m0081],
  ["0082-brand-colour", m0082],
  ["0083-cleanup-messages", m0083],
  ["0084-field-clock", m0084],
  ["0087-job-photos", m0087],
  ["0096-login-emails-by-the-app", m0096],
  ["0097-citus-query-shapes", m0097],
  ["0098-citus-field-signature", m0098],
  ["0105-refresh-statistics", m0105],
  ["0115-import-valid-rows", m0115],
  ["0130-visits", m0130],
  ["0150-crew-clocks", m0150],
  ["0151-visit-report-indexes", m0151],
  ["0170-list-unsubscribe", m0170],
  ["0190-account-exports", m0190],
  ["0200-job-items-billing", m0200],
  ["0210-prices", m0210],
  ["0220-timesheets", m0220],
  ["0230-document-properties", m0230],
  ["0260-summaries", m0260],
  ["0270-imported-tax-rates", m0270],
  ["0280-company-logos", m0280],
  ["0285-visit-insert-keys", m0285],
  ["0310-jobs-per-visit", m0310],
  ["0320-billing-event-facts", m0320],
  ["0370-jobs-waiting", m0370],
  ["0380-customers-figure", m0380],
  ["0381-dashboard-indexes-under-rls", m0381],
  ["0390-visit-trigger-arguments", m0390],
  ["0391-board-changes", m0391],
  ["0395-owed-by-due-date", m0395],
  ["0396-open-work-figures", m0396],
];
