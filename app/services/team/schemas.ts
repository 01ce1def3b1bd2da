// The team page's forms, shared by the server and the browser (conform validates with the same
// schemas): no server imports here.
import { z } from "zod";
import { emailSchema } from "~/services/accounts/schemas";
import { ROLES } from "~/utils/permissions";

export const roleSchema = z.enum(ROLES, {
  errorMap: () => ({ message: "Choose owner, admin, office or technician." }),
});
export const changeRoleSchema = z.object({ userId: z.string(), role: roleSchema });

export const addMemberSchema = z.object({
  name: z
    .string({ required_error: "Enter a name." })
    .trim()
    .min(1, "Enter a name.")
    .max(200, "At most 200 characters."),
  email: emailSchema,
  role: roleSchema,
});

/** The team page posts one form of two: a member's role (`intent=role`) or a new member (`intent=add`). */
export const teamFormSchema = z.discriminatedUnion(
  "intent",
  [changeRoleSchema.extend({ intent: z.literal("role") }), addMemberSchema.extend({ intent: z.literal("add") })],
  {
    errorMap: (issue, ctx) =>
      issue.code === "invalid_union_discriminator" ? { message: "Unknown action." } : { message: ctx.defaultError },
  },
);

/** The invite page's button: no fields (the member is in the path). */
export const inviteFormSchema = z.object({});
