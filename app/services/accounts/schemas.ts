// Shared with the browser (conform validates with the same schemas): no server imports here.
import { z } from "zod";
import { timeZoneField } from "~/services/company/time-zones";

export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;

export const emailSchema = z
  .string({ required_error: "Enter an email address." })
  .trim()
  .toLowerCase()
  .max(254, "An email address has at most 254 characters.")
  .email("Enter a valid email address.");

export const passwordSchema = z
  .string({ required_error: "Enter a password." })
  .min(PASSWORD_MIN, `A password has at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `A password has at most ${PASSWORD_MAX} characters.`)
  .refine((p) => p.trim().length > 0, "A password needs more than spaces.");

const requiredName = (what: string) =>
  z
    .string({ required_error: `Enter ${what}.` })
    .trim()
    .min(1, `Enter ${what}.`)
    .max(200, "At most 200 characters.");

export const signupSchema = z.object({
  businessName: requiredName("your business name"),
  name: requiredName("your name"),
  email: emailSchema,
  password: passwordSchema,
  /** The business's time zone: the browser's own with JavaScript, else UTC (also when not posted). */
  timeZone: timeZoneField.optional().transform((tz) => tz ?? "UTC"),
});
export type SignupInput = z.infer<typeof signupSchema>;

/** The invite page's form: the member chooses their password. */
export const setPasswordSchema = z.object({ password: passwordSchema });

export const loginSchema = z.object({
  email: emailSchema,
  password: z.string({ required_error: "Enter your password." }).min(1, "Enter your password.").max(1024),
  redirectTo: z.string().optional(),
});

/** The "which business?" step of sign-in. */
export const chooseBusinessSchema = z.object({
  tenantId: z.string({ required_error: "Choose a business." }).uuid("Choose a business."),
});

/** The sign-out button: no fields (the session is the cookie's). */
export const logoutFormSchema = z.object({});
