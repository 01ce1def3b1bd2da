/**
 * Whose a job is (docs/decisions/320-crews-and-visit-sync.md): a technician's job is one whose
 * visit has them in its crew, or, for a job without visits, one assigned to them. Any other job
 * of the tenant is unknown to them, exactly as another tenant's.
 */

/** SQL true when the job aliased `j` is the user at bind parameter `param`'s (e.g. "$3"). */
export const jobAssignedSql = (j: string, param: string) =>
  `(${j}.assignee_id = ${param} OR EXISTS (
     SELECT 1 FROM visits av JOIN visit_assignees aa ON aa.tenant_id = av.tenant_id AND aa.visit_id = av.id
      WHERE av.tenant_id = ${j}.tenant_id AND av.job_id = ${j}.id AND aa.user_id = ${param}))`;
