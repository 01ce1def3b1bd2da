import { Column, DataType, Model, Table } from "sequelize-typescript";
import { Json, TenantKey, Timestamp, Uuid } from "./columns";

/** A tenant's non-secret preferences for one settings area (migration 0008, docs/decisions/060). */
@Table({ tableName: "tenant_settings", underscored: true, createdAt: false })
export class TenantSetting extends Model {
  @TenantKey declare tenantId: string;
  @Column({ type: DataType.TEXT, primaryKey: true }) declare key: string;
  @Json declare value: Record<string, unknown>;
  @Uuid declare updatedBy: string | null;
  @Timestamp declare updatedAt: Date;
}
