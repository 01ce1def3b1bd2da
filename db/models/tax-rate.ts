import { Column, DataType, Model, Table } from "sequelize-typescript";
import { Id, RequiredText, TenantKey, Timestamp } from "./columns";

/** A named tax rate, or a group of rates (`isGroup`; its members in tax_group_rates). */
@Table({ tableName: "tax_rates", underscored: true })
export class TaxRate extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @RequiredText declare name: string;
  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false }) declare isGroup: boolean;
  /** A percent, NUMERIC(6,3), read as a string (exact); null for a group. */
  @Column(DataType.DECIMAL(6, 3)) declare rate: string | null;
  @Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false }) declare isDefault: boolean;
  @Timestamp declare archivedAt: Date | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}

/** A group's member rates, in order. */
@Table({ tableName: "tax_group_rates", underscored: true, timestamps: false })
export class TaxGroupRate extends Model {
  @Column({ type: DataType.UUID, primaryKey: true, allowNull: false }) declare tenantId: string;
  @Column({ type: DataType.UUID, primaryKey: true, allowNull: false }) declare groupId: string;
  @Column({ type: DataType.UUID, primaryKey: true, allowNull: false }) declare rateId: string;
  @Column({ type: DataType.INTEGER, allowNull: false }) declare position: number;
}
