import { Column, DataType, Model, Table } from "sequelize-typescript";
import { Id, TenantKey, Text, Uuid } from "./columns";

/** A customer's service property: where the work happens. */
@Table({ tableName: "customer_properties", underscored: true })
export class CustomerProperty extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare customerId: string;
  @Column({ type: DataType.INTEGER, allowNull: false, defaultValue: 1 }) declare position: number;
  @Text declare label: string | null;
  @Text declare addressLine1: string | null;
  @Text declare addressLine2: string | null;
  @Text declare city: string | null;
  @Text declare region: string | null;
  @Text declare postalCode: string | null;
  @Text declare country: string | null;
  @Uuid declare importRunId: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
