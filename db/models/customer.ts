import { Model, Table } from "sequelize-typescript";
import { Bool, Id, RequiredText, TenantKey, Text, Uuid } from "./columns";

@Table({ tableName: "customers", underscored: true })
export class Customer extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @RequiredText declare name: string;
  @Text declare company: string | null;
  @Text declare email: string | null;
  @Text declare phone: string | null;
  @Text declare addressLine1: string | null;
  @Text declare addressLine2: string | null;
  @Text declare city: string | null;
  @Text declare region: string | null;
  @Text declare postalCode: string | null;
  @Text declare country: string | null;
  @Text declare notes: string | null;
  @Text declare externalId: string | null;
  @Bool declare taxExempt: boolean;
  @Text declare taxExemptReason: string | null;
  @Uuid declare importRunId: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
