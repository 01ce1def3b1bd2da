// A customer's service property form, shared by the server and the browser.
import { z } from "zod";
import { withCrossChecks } from "~/utils/cross-checks";

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `Up to ${max} characters`)
    .optional()
    .transform((v) => (v ? v : null));

export const propertySchema = withCrossChecks(
  z.object({
    intent: z.enum(["property.add", "property.save"]),
    propertyId: z.string().optional(),
    label: text(100),
    addressLine1: text(200),
    addressLine2: text(200),
    city: text(100),
    region: text(100),
    postalCode: text(20),
    country: text(100),
  }),
  (v, ctx) => {
    if (!v.addressLine1 && !v.label)
      ctx.addIssue({
        code: z.ZodIssueCode.custom,
        path: ["addressLine1"],
        message: "Give the address (or at least a label)",
      });
    if (v.intent === "property.save" && !v.propertyId)
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["propertyId"], message: "Which property?" });
  },
);

export type PropertyInput = z.output<typeof propertySchema>;

export interface PropertyView {
  id: string;
  label: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  country: string | null;
  jobs: number;
}
