import { z } from "zod";

/**
 * An object schema with checks across its fields (end after start, an address or a label) that
 * report together with the fields' own errors, on the first submit.
 *
 * zod 3 skips an object's `superRefine` once one of its fields failed hard (a required field
 * left empty, a transform over a failed check), so a form refused for its empty name learnt
 * only on the next submit that its end was before its start. Here the object is parsed twice
 * side by side (an intersection: both sides always run and their issues add up): once as
 * written, once with every field that fails read as absent, and the checks run on the second,
 * seeing only the fields that parsed (absent also when empty: a default is not applied). See docs/decisions/350-every-error-on-the-first-submit.md.
 */
export function withCrossChecks<T extends z.ZodRawShape>(
  object: z.ZodObject<T>,
  check: (value: Partial<z.output<z.ZodObject<T>>>, ctx: z.RefinementCtx) => void,
) {
  const lenient = z.object(
    Object.fromEntries(
      Object.entries(object.shape).map(([key, field]) => [key, (field as z.ZodTypeAny).optional().catch(undefined)]),
    ),
  ) as unknown as z.ZodType<Partial<z.output<z.ZodObject<T>>>>;
  // The second side gives nothing to the result (an intersection merges both sides' values,
  // and a field's default would differ from the absent value read there).
  return z.intersection(
    object,
    lenient.superRefine(check).transform(() => ({})),
  );
}
