import type { ReactNode } from "react";
import { PageHeader } from "~/components/layout";
import { PortalLinksCard } from "~/components/portal-links";
import { RecordHistory } from "~/components/record-history";
import type { HistoryLine } from "~/services/history/types";
import type { PortalLinkView } from "~/services/portal/links.server";

export type RecordPortal = {
  customerId: string;
  customerName: string;
  links: PortalLinkView[];
  canManage: boolean;
  returnTo: string;
  createdId?: string | null;
};

/**
 * The building block of a record's page (customer, job, quote, invoice): the title row with the
 * record's state and actions, any notices (void, overdue), the record's own cards, then the same
 * closing cards on every page: the customer's portal links where the record has a customer, and
 * the record's history.
 */
export function RecordPage({
  title,
  description,
  actions,
  notices,
  portal,
  history,
  children,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  notices?: ReactNode;
  portal?: RecordPortal | null;
  history: HistoryLine[];
  children: ReactNode;
}) {
  return (
    <>
      <PageHeader title={title} description={description} actions={actions} />
      {notices}
      {children}
      {portal ? <PortalLinksCard {...portal} /> : null}
      <RecordHistory entries={history} />
    </>
  );
}
