import { Column, DataType, Model, Table } from "sequelize-typescript";
import { Cents, Id, RequiredText, TenantKey, Text } from "./columns";

import type { PriceBookKind } from "./price-book-kinds";

export { PRICE_BOOK_KINDS, type PriceBookKind } from "./price-book-kinds";

/** A service or product a line item can be picked from (/settings/price-book). */
@Table({ tableName: "price_book_items", underscored: true })
export class PriceBookItem extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @RequiredText declare kind: PriceBookKind;
  @RequiredText declare name: string;
  @Text declare description: string | null;
  @Cents declare unitPriceCents: number;
  /** A percent, NUMERIC(6,3), read as a string (exact). */
  @Column({ type: DataType.DECIMAL(6, 3), allowNull: false, defaultValue: "0" }) declare taxRate: string;
  /** The named rate or group; null: `taxRate` as typed. */
  @Column(DataType.UUID) declare taxRateId: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
