import { CalendarFeed } from "./calendar-feed";
import { Customer } from "./customer";
import { CustomerProperty } from "./customer-property";
import { Invoice, InvoiceItem, Payment, Quote, QuoteChangeRequest, QuoteDeposit, QuoteItem } from "./documents";
import { DocumentCounter, RecordHistoryEntry } from "./history";
import { Job, JobChecklistItem, JobClock, JobEvent, JobNote, JobSignature, TimeEntry } from "./job";
import { JobPhoto } from "./job-photo";
import { Message } from "./message";
import { BookingRequest, PortalLink } from "./portal";
import { PriceBookItem } from "./price-book";
import { Session } from "./session";
import { Tenant } from "./tenant";
import { User } from "./user";

export * from "./calendar-feed";
export * from "./customer";
export * from "./customer-property";
export * from "./documents";
export * from "./history";
export * from "./job";
export * from "./job-photo";
export * from "./message";
export * from "./portal";
export * from "./price-book";
export * from "./session";
export * from "./tenant";
export * from "./user";

/** Every model, registered as classes (a folder path does not survive the bundle). */
export const MODELS = [
  Tenant, User, Session, Customer, Job, JobNote, TimeEntry, JobEvent, JobClock, JobChecklistItem, JobSignature,
  Quote, QuoteItem, Invoice, InvoiceItem, Payment, PortalLink, BookingRequest,
  RecordHistoryEntry, DocumentCounter, PriceBookItem, CustomerProperty, CalendarFeed, Message, QuoteDeposit, QuoteChangeRequest, JobPhoto,
];
