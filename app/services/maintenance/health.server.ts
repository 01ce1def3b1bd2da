import { one } from "../../../db/index";
import { AppError } from "~/utils/app-error";

/** Resolves once the database answers a query; 503 when it does not. */
export async function assertDatabaseAnswers(): Promise<void> {
  try {
    await one("SELECT 1");
  } catch {
    throw new AppError("INTERNAL_ERROR", "The database is not answering.", { status: 503 });
  }
}
