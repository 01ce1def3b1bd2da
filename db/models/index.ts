import { BillingEvent } from "./billing-event";
import { CalendarFeed } from "./calendar-feed";
import { CompanyLogo } from "./company-logo";
import { Customer } from "./customer";
import { CustomerProperty } from "./customer-property";
import { Invoice, InvoiceItem, Payment, Quote, QuoteChangeRequest, QuoteDeposit, QuoteItem } from "./documents";
import { RecordHistoryEntry } from "./history";
import { Job, JobChecklistItem, JobClock, JobEvent, JobSignature, TimeEntry } from "./job";
import { JobPhoto } from "./job-photo";
import { BookingRequest, PortalLink } from "./portal";
import { PriceBookItem } from "./price-book";
import { TaxGroupRate, TaxRate } from "./tax-rate";
import { Tenant } from "./tenant";
import { TenantSetting } from "./tenant-setting";
import { User } from "./user";
import { Visit, VisitAssignee, VisitSeries } from "./visit";

export * from "./billing-event";
export * from "./calendar-feed";
export * from "./company-logo";
export * from "./customer";
export * from "./customer-property";
export * from "./documents";
export * from "./history";
export * from "./job";
export * from "./job-photo";
export * from "./portal";
export * from "./price-book";
export * from "./tax-rate";
export * from "./tenant";
export * from "./tenant-setting";
export * from "./user";
export * from "./visit";

/** Every model, registered as classes (a folder path does not survive the bundle). */
export const MODELS = [
  Tenant,
  TenantSetting,
  User,
  Customer,
  Job,
  TimeEntry,
  JobEvent,
  JobClock,
  JobChecklistItem,
  JobSignature,
  Quote,
  QuoteItem,
  Invoice,
  InvoiceItem,
  Payment,
  PortalLink,
  BookingRequest,
  RecordHistoryEntry,
  PriceBookItem,
  TaxRate,
  TaxGroupRate,
  CustomerProperty,
  CalendarFeed,
  QuoteDeposit,
  QuoteChangeRequest,
  JobPhoto,
  CompanyLogo,
  BillingEvent,
  VisitSeries,
  Visit,
  VisitAssignee,
];
