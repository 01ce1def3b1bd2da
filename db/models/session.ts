import { Model, Table } from "sequelize-typescript";
import { Column, DataType } from "sequelize-typescript";
import { Json, TenantKey, Text, Timestamp, Uuid } from "./columns";

@Table({ tableName: "sessions", underscored: true, updatedAt: false })
export class Session extends Model {
  @TenantKey declare tenantId: string;
  /** sha256 of the cookie's secret part, never the secret itself. */
  @Column({ type: DataType.TEXT, primaryKey: true }) declare id: string;
  @Uuid declare userId: string;
  @Timestamp declare expiresAt: Date;
  @Json declare flash: Record<string, unknown> | null;
  @Text declare userAgent: string | null;
  @Text declare ip: string | null;
  declare createdAt: Date;
}
