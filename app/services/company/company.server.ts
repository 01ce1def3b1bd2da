// Company settings (/settings/company): the business's name,
// contact details, time zone and the defaults quotes and invoices start from.
import { inTenant, one } from "../../../db/index";
import { Tenant } from "../../../db/models";
import { AppError, notFound } from "~/utils/app-error";
import type { Actor } from "~/services/accounts/actor";
import { trimDecimal } from "~/services/documents/line-items";
import { WEEKDAYS } from "~/services/visits/repeat";
import type { CompanySettingsValue } from "./schemas";

/** The form's values as strings (what the inputs show). */
export type CompanySettingsForm = {
  businessName: string;
  phone: string;
  email: string;
  address: string;
  timeZone: string;
  currency: string;
  defaultTaxRate: string;
  paymentTermsDays: string;
  quoteValidityDays: string;
  reminderQuoteDays: string;
  reminderInvoiceBeforeDays: string;
  reminderInvoiceAfterDays: string;
  reminderVisit: string;
  brandColor: string;
  checklistRequired: string;
  weekStartsOn: string;
  overtimeWeeklyHours: string;
  overtimeDailyHours: string;
};

/** Minutes as the hours a form shows ("40", "7.5"). */
const formHours = (minutes: number) => String(Math.round((minutes / 60) * 100) / 100);

export async function getCompanySettings(actor: Actor): Promise<CompanySettingsForm & { updatedAt: string }> {
  return inTenant(actor.tenantId, async (t) => {
    const tenant = await Tenant.findOne({ where: { id: actor.tenantId }, transaction: t });
    if (!tenant) throw notFound();
    return {
      businessName: tenant.name,
      phone: tenant.phone ?? "",
      email: tenant.email ?? "",
      address: tenant.address ?? "",
      timeZone: tenant.timeZone,
      currency: tenant.currency.trim(),
      defaultTaxRate: trimDecimal(tenant.defaultTaxRate),
      paymentTermsDays: String(tenant.paymentTermsDays),
      quoteValidityDays: String(tenant.quoteValidityDays),
      reminderQuoteDays: tenant.reminderQuoteDays == null ? "" : String(tenant.reminderQuoteDays),
      reminderInvoiceBeforeDays:
        tenant.reminderInvoiceBeforeDays == null ? "" : String(tenant.reminderInvoiceBeforeDays),
      reminderInvoiceAfterDays: tenant.reminderInvoiceAfterDays == null ? "" : String(tenant.reminderInvoiceAfterDays),
      reminderVisit: tenant.reminderVisit ? "on" : "",
      brandColor: tenant.brandColor,
      checklistRequired: tenant.checklistRequired ? "on" : "",
      weekStartsOn: WEEKDAYS[tenant.weekStartsOn - 1] ?? "monday",
      overtimeWeeklyHours: formHours(tenant.overtimeWeeklyMinutes),
      overtimeDailyHours: tenant.overtimeDailyMinutes == null ? "" : formHours(tenant.overtimeDailyMinutes),
      updatedAt: tenant.updatedAt.toISOString(),
    };
  });
}

/**
 * Saves the company settings. The time zone must be one PostgreSQL knows as well (every page's
 * dates and the schedule use it there), else 422 beside the field. Quotes and invoices already
 * written keep their own currency, dates and tax rates; new ones start from these.
 */
export async function saveCompanySettings(actor: Actor, v: CompanySettingsValue): Promise<void> {
  await inTenant(actor.tenantId, async (t) => {
    // Raw SQL on purpose: a system catalog (no model), the zone list PostgreSQL itself computes with.
    const known = await one(`SELECT 1 FROM pg_timezone_names WHERE name = $1`, [v.timeZone], t);
    if (!known) {
      throw new AppError("VALIDATION_FAILED", "Some fields are not valid.", {
        fields: { timeZone: ["This time zone is not supported."] },
      });
    }
    const [changed] = await Tenant.update(
      {
        name: v.businessName,
        phone: v.phone,
        email: v.email,
        address: v.address,
        timeZone: v.timeZone,
        currency: v.currency,
        defaultTaxRate: v.defaultTaxRate,
        paymentTermsDays: v.paymentTermsDays,
        quoteValidityDays: v.quoteValidityDays,
        reminderQuoteDays: v.reminderQuoteDays,
        reminderInvoiceBeforeDays: v.reminderInvoiceBeforeDays,
        reminderInvoiceAfterDays: v.reminderInvoiceAfterDays,
        reminderVisit: v.reminderVisit,
        brandColor: v.brandColor,
        checklistRequired: v.checklistRequired,
        weekStartsOn: v.weekStartsOn,
        overtimeWeeklyMinutes: v.overtimeWeeklyHours,
        overtimeDailyMinutes: v.overtimeDailyHours,
      },
      { where: { id: actor.tenantId }, transaction: t },
    );
    if (!changed) throw notFound();
  });
}
