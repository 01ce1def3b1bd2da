import { one, type Tx } from "../../../db/index";
import { jobAssignedSql } from "./assigned";

/** Whether the job is the technician's (in a visit's crew, or assigned a job without visits). */
export async function isJobAssigned(tenantId: string, jobId: string, userId: string, t: Tx): Promise<boolean> {
  const found = await one<{ ok: boolean }>(
    `SELECT ${jobAssignedSql("j", "$3")} AS ok FROM jobs j WHERE j.tenant_id = $1 AND j.id = $2`,
    [tenantId, jobId, userId],
    t,
  );
  return !!found?.ok;
}
