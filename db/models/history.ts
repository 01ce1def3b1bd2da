import { Model, Table } from "sequelize-typescript";
import { Id, Json, RequiredText, TenantKey, Text, Timestamp, Uuid } from "./columns";

import { HISTORY_SOURCES, RECORD_TYPES, type HistorySource, type RecordType } from "../enums";

export { HISTORY_SOURCES, RECORD_TYPES, type HistorySource, type RecordType };

/** One line of a record's history: who did what, and when (docs/decisions/120). */
@Table({ tableName: "record_history", underscored: true, timestamps: false })
export class RecordHistoryEntry extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @RequiredText declare recordType: RecordType;
  @Uuid declare recordId: string;
  @RequiredText declare action: string;
  @RequiredText declare summary: string;
  @RequiredText declare source: HistorySource;
  @Uuid declare userId: string | null;
  @Text declare actorName: string | null;
  @Json declare details: Record<string, unknown> | null;
  /** Left to the database's clock_timestamp() default unless given. */
  @Timestamp declare occurredAt: Date;
}

export const DOCUMENT_KINDS = ["quote", "invoice"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
