import { Column, DataType, Model, Table } from "sequelize-typescript";
import { RequiredText, TenantKey, Uuid } from "./columns";

/** A business's logo (migration 0280): one row per tenant; the bytes are read only when served or drawn. */
@Table({ tableName: "company_logos", underscored: true, updatedAt: false })
export class CompanyLogo extends Model {
  @TenantKey declare tenantId: string;
  @Uuid declare id: string;
  @RequiredText declare contentType: "image/jpeg" | "image/png";
  @Column({ type: DataType.INTEGER, allowNull: false }) declare width: number;
  @Column({ type: DataType.INTEGER, allowNull: false }) declare height: number;
  @Column({ type: DataType.INTEGER, allowNull: false }) declare byteSize: number;
  @RequiredText declare sha256: string;
  @Column({ type: DataType.BLOB, allowNull: false }) declare bytes: Buffer;
  declare createdAt: Date;
}
