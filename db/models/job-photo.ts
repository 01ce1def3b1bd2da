import { Column, DataType, Model, Table } from "sequelize-typescript";
import { Id, RequiredText, TenantKey, Uuid } from "./columns";
import type { PhotoContentType } from "../enums";

/** A photo a technician took on a job (migration 0087); the bytes are read only when served. */
@Table({ tableName: "job_photos", underscored: true, updatedAt: false })
export class JobPhoto extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare jobId: string;
  @Uuid declare takenBy: string;
  @Column({ type: DataType.DATE, allowNull: false }) declare takenAt: Date;
  @RequiredText declare contentType: PhotoContentType;
  @Column({ type: DataType.INTEGER, allowNull: false }) declare byteSize: number;
  @RequiredText declare sha256: string;
  @Column({ type: DataType.BLOB, allowNull: false }) declare bytes: Buffer;
  declare createdAt: Date;
}
