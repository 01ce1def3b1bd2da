// What a page receives of a record's history (shared by the server and the browser).
import type { HistorySource } from "../../../db/enums";

export type HistorySourceName = HistorySource;
export type HistoryLine = {
  id: string;
  at: string;
  action: string;
  summary: string;
  who: string | null;
  source: HistorySourceName;
};

/** The sentence a history line reads as: "Sent by Olive Owner", "Approved in the portal by Ann Customer". */
export const historySentence = (item: Pick<HistoryLine, "summary" | "who">) =>
  item.who ? `${item.summary} by ${item.who}` : item.summary;
