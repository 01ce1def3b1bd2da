import { Model, Table } from "sequelize-typescript";
import { Id, TenantKey, Timestamp, Uuid } from "./columns";

/** A subscription link to one member's jobs (`/calendar/<token>.ics`, migration 0030). */
@Table({ tableName: "calendar_feeds", underscored: true, updatedAt: false })
export class CalendarFeed extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare userId: string;
  @Uuid declare createdBy: string;
  @Timestamp declare revokedAt: Date | null;
  @Uuid declare revokedBy: string | null;
  declare createdAt: Date;
}
