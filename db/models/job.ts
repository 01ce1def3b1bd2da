import { Column, DataType, Model, Table } from "sequelize-typescript";
import { Id, RequiredText, TenantKey, Text, Timestamp, Uuid } from "./columns";
import type { JobStatus, TimeEntryKind } from "../enums";

export type { JobStatus };
export type JobBilling = "on_completion" | "per_visit";

@Table({ tableName: "jobs", underscored: true })
export class Job extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare customerId: string;
  @RequiredText declare title: string;
  @Text declare description: string | null;
  @RequiredText declare status: JobStatus;
  @Timestamp declare scheduledStart: Date | null;
  @Timestamp declare scheduledEnd: Date | null;
  @Uuid declare assigneeId: string | null;
  @Text declare address: string | null;
  /** The customer's service property the job happens at (section 14), if named. */
  @Uuid declare propertyId: string | null;
  @Text declare externalId: string | null;
  @Timestamp declare completedAt: Date | null;
  @Uuid declare importRunId: string | null;
  /** The iCalendar SEQUENCE of the job's event: a trigger counts its moves (migration 0030). */
  @Column({ type: DataType.INTEGER, allowNull: false, defaultValue: 0 }) declare scheduleSequence: number;
  /** The quote this job was converted from. */
  @Uuid declare quoteId: string | null;
  /** `on_completion` (one invoice for the job) or `per_visit` (an invoice per completed visit), migration 0200. */
  @Column({ type: DataType.STRING, allowNull: false, defaultValue: "on_completion" }) declare billing: JobBilling;
  declare createdAt: Date;
  declare updatedAt: Date;
}

@Table({ tableName: "time_entries", underscored: true, updatedAt: false })
export class TimeEntry extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare jobId: string;
  /** The visit it was worked on (NULL for entries from before visits). */
  @Uuid declare visitId: string | null;
  @Uuid declare userId: string | null;
  @Timestamp declare startedAt: Date;
  @Timestamp declare endedAt: Date;
  @Text declare note: string | null;
  /** `work`, `travel` or `break` (a timesheet's line; a break is never billed). */
  @Column({ type: DataType.TEXT, allowNull: false, defaultValue: "work" }) declare kind: TimeEntryKind;
  declare createdAt: Date;
}

@Table({ tableName: "job_events", underscored: true, updatedAt: false })
export class JobEvent extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare jobId: string;
  @Uuid declare userId: string | null;
  @Text declare fromStatus: string | null;
  @RequiredText declare toStatus: string;
  @Timestamp declare occurredAt: Date;
  declare createdAt: Date;
}

/** A technician's running clock on a job's visit (migrations 0084, 0150): stopped, it becomes their time entry. */
@Table({ tableName: "job_clocks", underscored: true, updatedAt: false })
export class JobClock extends Model {
  @TenantKey declare tenantId: string;
  @Column({ type: DataType.UUID, primaryKey: true, allowNull: false }) declare jobId: string;
  @Column({ type: DataType.UUID, primaryKey: true, allowNull: false }) declare userId: string;
  @Uuid declare visitId: string | null;
  @Timestamp declare startedAt: Date;
  @Timestamp declare onSiteAt: Date | null;
  declare createdAt: Date;
}

/** What the technician ticks on site, in order (from the quote's items or typed by the office). */
@Table({ tableName: "job_checklist_items", underscored: true, updatedAt: false })
export class JobChecklistItem extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare jobId: string;
  @Column({ type: DataType.INTEGER, allowNull: false }) declare position: number;
  @RequiredText declare label: string;
  @Timestamp declare doneAt: Date | null;
  @Uuid declare doneBy: string | null;
  declare createdAt: Date;
}

/** The customer's signature on completion: a drawn PNG, or a typed name (no JavaScript). */
@Table({ tableName: "job_signatures", underscored: true })
export class JobSignature extends Model {
  @TenantKey declare tenantId: string;
  @Column({ type: DataType.UUID, primaryKey: true, allowNull: false }) declare jobId: string;
  @RequiredText declare signerName: string;
  @Column(DataType.BLOB) declare image: Buffer | null;
  @Timestamp declare signedAt: Date;
  @Uuid declare collectedBy: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}
