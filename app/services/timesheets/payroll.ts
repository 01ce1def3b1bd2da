// The payroll file: one row per person and day with hours, cells escaped against spreadsheet
// formulas, decimal hours with two places beside exact minutes.
import { toCsv } from "~/services/import/csv-write";
import { decimalHours, type DayHours } from "./hours";

export const PAYROLL_COLUMNS = [
  "employee_name",
  "employee_email",
  "date",
  "regular_hours",
  "overtime_hours",
  "total_hours",
  "regular_minutes",
  "overtime_minutes",
  "week_status",
] as const;

type PayrollPerson = { name: string; email: string; days: DayHours[]; approved: boolean };

export function payrollCsv(people: readonly PayrollPerson[]): string {
  const rows = people.flatMap((p) =>
    p.days.map((d) => [
      p.name,
      p.email,
      d.date,
      decimalHours(d.regularMinutes),
      decimalHours(d.overtimeMinutes),
      decimalHours(d.paidMinutes),
      d.regularMinutes,
      d.overtimeMinutes,
      p.approved ? "approved" : "open",
    ]),
  );
  return toCsv(PAYROLL_COLUMNS, rows);
}
