import { Column, DataType, Model, Table } from "sequelize-typescript";
import { Id, RequiredText } from "./columns";

@Table({ tableName: "tenants", underscored: true })
export class Tenant extends Model {
  @Id declare id: string;
  @RequiredText declare name: string;
  @Column({ type: DataType.TEXT, allowNull: false, defaultValue: "UTC" }) declare timeZone: string;
  declare createdAt: Date;
  declare updatedAt: Date;
}
