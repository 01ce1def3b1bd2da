import { Column, DataType, Model, Table } from "sequelize-typescript";
import { Id, RequiredText, TenantKey, Text, Timestamp, Uuid } from "./columns";
import type { VisitStatus } from "../enums";

export type { VisitStatus };

/**
 * One visit of a job (migration 0130, docs/decisions/276-visits.md): a start and an end in the
 * tenant's zone (possibly days apart), a crew (VisitAssignee) and a status. A series visit names
 * its series and the wall-clock occurrence it was made for.
 */
@Table({ tableName: "visits", underscored: true })
export class Visit extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare jobId: string;
  @Column({ type: DataType.DATE, allowNull: false }) declare startsAt: Date;
  /** NULL only for a job's time imported without an end (shown as one hour). */
  @Timestamp declare endsAt: Date | null;
  @RequiredText declare status: VisitStatus;
  @Text declare note: string | null;
  @Uuid declare seriesId: string | null;
  /** The series' wall-clock occurrence ("2026-10-13 09:00:00"), as PostgreSQL's timestamp text. */
  @Column(DataType.STRING) declare occurrence: string | null;
  @Timestamp declare completedAt: Date | null;
  /** The iCalendar SEQUENCE of the visit's event. */
  @Column({ type: DataType.INTEGER, allowNull: false, defaultValue: 0 }) declare sequence: number;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** A member of a visit's crew. */
@Table({ tableName: "visit_assignees", underscored: true, updatedAt: false })
export class VisitAssignee extends Model {
  @TenantKey declare tenantId: string;
  @Column({ type: DataType.UUID, primaryKey: true, allowNull: false }) declare visitId: string;
  @Column({ type: DataType.UUID, primaryKey: true, allowNull: false }) declare userId: string;
  declare createdAt: Date;
}

/** A recurring job's rule: an RRULE computed as wall-clock times in `timeZone`. */
@Table({ tableName: "visit_series", underscored: true })
export class VisitSeries extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare jobId: string;
  @RequiredText declare rule: string;
  @Column({ type: DataType.STRING, allowNull: false }) declare firstLocal: string;
  @RequiredText declare timeZone: string;
  @Column({ type: DataType.INTEGER, allowNull: false }) declare durationMinutes: number;
  @Column({ type: DataType.ARRAY(DataType.UUID), allowNull: false, defaultValue: [] }) declare crew: string[];
  @Column({ type: DataType.BOOLEAN, allowNull: false }) declare openEnded: boolean;
  @Column({ type: DataType.STRING, allowNull: false }) declare madeUntil: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}
