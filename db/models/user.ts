import { Model, Table } from "sequelize-typescript";
import { Id, RequiredText, TenantKey, Text, Uuid } from "./columns";
import { Column, DataType } from "sequelize-typescript";
import type { Role } from "../enums";

@Table({ tableName: "users", underscored: true })
export class User extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @RequiredText declare email: string;
  @RequiredText declare name: string;
  @RequiredText declare role: Role;
  /** NULL until the member sets a password through an invite. */
  @Text declare passwordHash: string | null;
  @Text declare phone: string | null;
  @Column(DataType.BIGINT) declare hourlyRateCents: number | null;
  @Uuid declare importRunId: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
