import { Column, DataType, Model, Table } from "sequelize-typescript";
import { Json, RequiredText, Text, Timestamp, Uuid } from "./columns";

/**
 * One billing provider event as received (migration 0007): the providers' log, kept on the
 * coordinator (db/distribution.ts), keyed by (provider, event_id). `tenant_id` is null until
 * the event names a known tenant.
 */
@Table({ tableName: "billing_events", underscored: true, timestamps: false })
export class BillingEvent extends Model {
  @Column({ type: DataType.TEXT, primaryKey: true }) declare provider: "stripe" | "paddle";
  @Column({ type: DataType.TEXT, primaryKey: true }) declare eventId: string;
  @RequiredText declare type: string;
  @RequiredText declare status: "processed" | "ignored";
  @Text declare reason: string | null;
  @Uuid declare tenantId: string | null;
  @Timestamp declare occurredAt: Date;
  @Timestamp declare receivedAt: Date;
  @Json declare payload: unknown;
}
