import { Column, DataType, Model, Table } from "sequelize-typescript";
import type { MessageKind, MessageStatus, RecordType } from "../enums";
import { Id, RequiredText, TenantKey, Text, Timestamp, Uuid } from "./columns";

/**
 * One e-mail in the outbox (migration 0050, docs/decisions/140): written in the transaction of
 * the effect it tells of, delivered by a worker (app/services/messages/worker.server.ts).
 */
@Table({ tableName: "messages", underscored: true, updatedAt: false })
export class Message extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @RequiredText declare kind: MessageKind;
  @RequiredText declare status: MessageStatus;
  @RequiredText declare toAddress: string;
  @Text declare toName: string | null;
  @Text declare replyTo: string | null;
  @RequiredText declare fromName: string;
  @RequiredText declare subject: string;
  @RequiredText declare textBody: string;
  @RequiredText declare htmlBody: string;
  @RequiredText declare messageId: string;
  /** What the bodies' {{link}} stands for: `portal:<link id>` or `sealed:<...>` (never a token). */
  @Text declare linkRef: string | null;
  @Text declare recordType: RecordType | null;
  @Uuid declare recordId: string | null;
  @Text declare dedupeKey: string | null;
  @Column({ type: DataType.INTEGER, allowNull: false, defaultValue: 0 }) declare attempts: number;
  @Timestamp declare nextAttemptAt: Date;
  @Text declare claimedBy: string | null;
  @Text declare smtpResponse: string | null;
  @Text declare lastError: string | null;
  @Timestamp declare sentAt: Date | null;
  @Uuid declare createdBy: string | null;
  declare createdAt: Date;
}
