// Numbers and times as the import pages write them.
import { useRootData } from "~/components/root-data";

export const n = (v: number) => v.toLocaleString("en-US");
export const plural = (count: number, one: string, many: string) => `${n(count)} ${count === 1 ? one : many}`;

/** The signed-in user's time zone (the business's), for the upload and import times. */
export function useImportTimeZone() {
  return useRootData()?.user?.timeZone ?? "UTC";
}
