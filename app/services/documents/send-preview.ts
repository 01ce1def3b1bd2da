/**
 * What a Send page shows of a quote or an invoice before it goes: its state, whether it can be
 * sent in that state, and the message as the customer will read it.
 */
export function sendPreviewOf<M>(
  doc: { id: string; number: string; status: string; sentAt: Date | null },
  sendableStatuses: readonly string[],
  message: M,
) {
  return {
    id: doc.id,
    number: doc.number,
    status: doc.status,
    sentAt: doc.sentAt ? doc.sentAt.toISOString() : null,
    sendable: sendableStatuses.includes(doc.status),
    message,
  };
}
