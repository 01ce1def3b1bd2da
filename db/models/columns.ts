import { Column, DataType } from "sequelize-typescript";

// Shared column decorators. esbuild emits no decorator metadata, so every column names its type.
/** Part of every tenant-owned primary key: (tenant_id, id). */
export const TenantKey = Column({ type: DataType.UUID, primaryKey: true, allowNull: false });
export const Id = Column({ type: DataType.UUID, primaryKey: true, defaultValue: DataType.UUIDV4 });
export const Uuid = Column(DataType.UUID);
export const Text = Column(DataType.TEXT);
export const RequiredText = Column({ type: DataType.TEXT, allowNull: false });
export const Cents = Column({ type: DataType.BIGINT, allowNull: false, defaultValue: 0 });
export const Timestamp = Column(DataType.DATE);
export const DateOnly = Column(DataType.DATEONLY);
export const Json = Column(DataType.JSONB);
/** A yes/no column, false unless set. */
export const Bool = Column({ type: DataType.BOOLEAN, allowNull: false, defaultValue: false });
