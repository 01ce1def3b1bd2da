import { Column, DataType, Model, Table } from "sequelize-typescript";
import { Cents, DateOnly, Id, RequiredText, TenantKey, Text, Timestamp, Uuid } from "./columns";
import type { InvoiceStatus, QuoteStatus } from "../enums";

export type { InvoiceStatus, QuoteStatus };

/** Columns quotes and invoices share. */
abstract class Document extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare customerId: string;
  @RequiredText declare number: string;
  @DateOnly declare issueDate: string | null;
  @RequiredText declare currency: string;
  @Text declare notes: string | null;
  @Cents declare subtotalCents: number;
  @Cents declare taxCents: number;
  @Cents declare totalCents: number;
  /** The document discount as typed (percent or amount) and the cents of every discount on it. */
  @Text declare discountType: "percent" | "amount" | null;
  @Column(DataType.DECIMAL(6, 3)) declare discountPercent: string | null;
  @Column(DataType.BIGINT) declare discountAmountCents: number | null;
  @Cents declare discountCents: number;
  /** Set when the customer was tax exempt as the document was made: it carries no tax, and says why. */
  @Text declare taxExemptReason: string | null;
  @Timestamp declare sentAt: Date | null;
  @Uuid declare importRunId: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

@Table({ tableName: "quotes", underscored: true })
export class Quote extends Document {
  @Text declare title: string | null;
  @RequiredText declare status: QuoteStatus;
  @DateOnly declare validUntil: string | null;
  @Timestamp declare approvedAt: Date | null;
  @Text declare approvedName: string | null;
  @Text declare approvedIp: string | null;
  @Text declare approvedUserAgent: string | null;
  @Timestamp declare declinedAt: Date | null;
  @Text declare declineReason: string | null;
  /** The job this quote was converted to (once). */
  @Uuid declare jobId: string | null;
  @Timestamp declare convertedAt: Date | null;
  /** The booking request this quote answers. */
  @Uuid declare bookingRequestId: string | null;
  /** The customer's service property the work is at, if named (carried on to the job). */
  @Uuid declare propertyId: string | null;
  /** The option group the customer approved (null: none recorded, or the quote has none). */
  @Text declare chosenOption: string | null;
  /** The deposit asked on approval: a percent of the chosen total or an amount (never both). */
  @Column(DataType.DECIMAL(5, 2)) declare depositPercent: string | null;
  @Column(DataType.BIGINT) declare depositCents: number | null;
}

/** The deposit paid with an approval; the job's invoice receives it as a payment (docs/decisions/156). */
@Table({ tableName: "quote_deposits", underscored: true, timestamps: false })
export class QuoteDeposit extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare quoteId: string;
  @Column({ type: DataType.BIGINT, allowNull: false }) declare amountCents: number;
  @RequiredText declare currency: string;
  @RequiredText declare method: string;
  @RequiredText declare reference: string;
  @Text declare payerIp: string | null;
  @Timestamp declare paidAt: Date;
  @Uuid declare invoiceId: string | null;
  @Uuid declare paymentId: string | null;
}

/** A customer's request for changes to a sent quote (docs/decisions/157). */
@Table({ tableName: "quote_change_requests", underscored: true, updatedAt: false })
export class QuoteChangeRequest extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare quoteId: string;
  @Uuid declare customerId: string;
  @RequiredText declare message: string;
  declare createdAt: Date;
}

@Table({ tableName: "invoices", underscored: true })
export class Invoice extends Document {
  @Uuid declare quoteId: string | null;
  @RequiredText declare status: InvoiceStatus;
  @DateOnly declare dueDate: string | null;
  @Cents declare amountPaidCents: number;
  @Timestamp declare paidAt: Date | null;
  /** The job this invoice was made from (one invoice per job besides its visits' invoices, migration 0200). */
  @Uuid declare jobId: string | null;
  /** The service property of the job it bills, if named. */
  @Uuid declare propertyId: string | null;
  /** The visit this invoice bills (a job billed per visit), at most one per visit. */
  @Uuid declare visitId: string | null;
  @Timestamp declare voidedAt: Date | null;
  @Uuid declare voidedBy: string | null;
}

/** Line items; quantity and tax rate are NUMERIC and read as strings (exact). */
abstract class LineItem extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Column({ type: DataType.INTEGER, allowNull: false }) declare position: number;
  @RequiredText declare description: string;
  @Column({ type: DataType.DECIMAL(12, 3), allowNull: false }) declare quantity: string;
  @Cents declare unitPriceCents: number;
  @Column({ type: DataType.DECIMAL(6, 3), allowNull: false }) declare taxRate: string;
  @Cents declare lineTotalCents: number;
  @Cents declare taxCents: number;
  /** The named rate or group (tax_rates); null: `taxRate` as typed, or none. */
  @Uuid declare taxRateId: string | null;
  @Text declare discountType: "percent" | "amount" | null;
  @Column(DataType.DECIMAL(6, 3)) declare discountPercent: string | null;
  @Column(DataType.BIGINT) declare discountAmountCents: number | null;
  /** The line's own discount in cents (the document discount's share is not in it). */
  @Cents declare discountCents: number;
}

@Table({ tableName: "quote_items", underscored: true, timestamps: false })
export class QuoteItem extends LineItem {
  @Uuid declare quoteId: string;
  /** The option group ("Good", "Better"...); null = always included. */
  @Text declare optionName: string | null;
  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false }) declare optional: boolean;
  /** What the customer chose on approval; null until a choice is recorded. */
  @Column(DataType.BOOLEAN) declare selected: boolean | null;
}

@Table({ tableName: "invoice_items", underscored: true, timestamps: false })
export class InvoiceItem extends LineItem {
  @Uuid declare invoiceId: string;
}

@Table({ tableName: "payments", underscored: true, updatedAt: false })
export class Payment extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare invoiceId: string;
  @Column({ type: DataType.BIGINT, allowNull: false }) declare amountCents: number;
  @RequiredText declare currency: string;
  @RequiredText declare method: string;
  @RequiredText declare reference: string;
  @Text declare idempotencyKey: string | null;
  @Text declare payerIp: string | null;
  @Timestamp declare recordedAt: Date;
  /** The day the money arrived (staff payments); the portal's are dated by recordedAt. */
  @DateOnly declare receivedOn: string | null;
  @Uuid declare recordedBy: string | null;
  @Uuid declare importRunId: string | null;
  declare createdAt: Date;
}
