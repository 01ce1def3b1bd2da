import { Column, DataType, Model, Table } from "sequelize-typescript";
import { Id, RequiredText, Text, Timestamp } from "./columns";

@Table({ tableName: "tenants", underscored: true })
export class Tenant extends Model {
  @Id declare id: string;
  @RequiredText declare name: string;
  @Column({ type: DataType.TEXT, allowNull: false, defaultValue: "UTC" }) declare timeZone: string;
  // Company settings (/settings/company).
  @Text declare phone: string | null;
  @Text declare email: string | null;
  @Text declare address: string | null;
  @Column({ type: DataType.TEXT, allowNull: false, defaultValue: "USD" }) declare currency: string;
  /** A percent, NUMERIC(6,3), read as a string (exact). */
  @Column({ type: DataType.DECIMAL(6, 3), allowNull: false, defaultValue: "0" }) declare defaultTaxRate: string;
  @Column({ type: DataType.INTEGER, allowNull: false, defaultValue: 14 }) declare paymentTermsDays: number;
  @Column({ type: DataType.INTEGER, allowNull: false, defaultValue: 30 }) declare quoteValidityDays: number;
  // Automatic reminders (migration 0051): null / false is off.
  @Column(DataType.INTEGER) declare reminderQuoteDays: number | null;
  @Column(DataType.INTEGER) declare reminderInvoiceBeforeDays: number | null;
  @Column(DataType.INTEGER) declare reminderInvoiceAfterDays: number | null;
  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false }) declare reminderVisit: boolean;
  @Column({ type: DataType.TEXT, allowNull: false, defaultValue: "#1d4ed8" }) declare brandColor: string;
  /** Completing a job needs every checklist item ticked (migration 0084). */
  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false }) declare checklistRequired: boolean;
  // Timesheets (migration 0220): the week's first day (ISO weekday, 1 = Monday) and the overtime rules.
  @Column({ type: DataType.SMALLINT, allowNull: false, defaultValue: 1 }) declare weekStartsOn: number;
  @Column({ type: DataType.INTEGER, allowNull: false, defaultValue: 2400 }) declare overtimeWeeklyMinutes: number;
  @Column(DataType.INTEGER) declare overtimeDailyMinutes: number | null;
  // Billing state, written only by the billing webhook intake (app/services/billing/intake.server.ts).
  @Text declare plan: string | null;
  @Text declare subscriptionStatus: string | null;
  @Timestamp declare currentPeriodEnd: Date | null;
  @Text declare billingProvider: "stripe" | "paddle" | null;
  /** Provider time of the last applied billing event: older ones arriving late change nothing. */
  @Timestamp declare billingEventAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
