import { Model, Table } from "sequelize-typescript";
import type { BookingRequestStatus, TimeWindow } from "../enums";
import { DateOnly, Id, RequiredText, TenantKey, Text, Timestamp, Uuid } from "./columns";

@Table({ tableName: "portal_links", underscored: true, updatedAt: false })
export class PortalLink extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare customerId: string;
  @Uuid declare createdBy: string | null;
  @Timestamp declare expiresAt: Date;
  @Timestamp declare revokedAt: Date | null;
  @Uuid declare revokedBy: string | null;
  declare createdAt: Date;
}

@Table({ tableName: "booking_requests", underscored: true })
export class BookingRequest extends Model {
  @TenantKey declare tenantId: string;
  @Id declare id: string;
  @Uuid declare customerId: string;
  @Uuid declare portalLinkId: string | null;
  @RequiredText declare service: string;
  @Text declare description: string | null;
  @DateOnly declare preferredDate: string | null;
  @RequiredText declare timeWindow: TimeWindow;
  @Text declare address: string | null;
  @Text declare phone: string | null;
  @RequiredText declare status: BookingRequestStatus;
  /** The portal form's key: one request per rendered form (migration 0005). */
  @Text declare idempotencyKey: string | null;
  @Uuid declare triagedBy: string | null;
  @Timestamp declare triagedAt: Date | null;
  /** The quote or job made from this request (each at most once, migration 0025). */
  @Uuid declare quoteId: string | null;
  @Uuid declare jobId: string | null;
  /** One of the customer's service properties, chosen in the portal's booking form. */
  @Uuid declare propertyId: string | null;
  declare createdAt: Date;
  declare updatedAt: Date;
}
