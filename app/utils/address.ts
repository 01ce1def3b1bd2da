// Postal addresses as people write them, shared by pages, documents and e-mails (no server
// imports). The city is followed by a comma, the region and the postal code by a space only:
// "Denver, CO 80212", never "Denver, CO, 80212" nor "Denver CO 80212".

type Part = string | null | undefined;

const clean = (v: Part) => (typeof v === "string" && v.trim() ? v.trim() : null);

/** "Denver, CO 80212", "Dublin D02 X285", "Denver" or "" from what is there. */
export function cityLine(city: Part, region: Part, postalCode: Part): string {
  const tail = [clean(region), clean(postalCode)].filter(Boolean).join(" ");
  return [clean(city), tail || null].filter(Boolean).join(", ");
}

export type AddressFields = {
  addressLine1?: Part;
  addressLine2?: Part;
  city?: Part;
  region?: Part;
  postalCode?: Part;
  country?: Part;
};

/** The address as lines, for a block: street, second line, "Denver, CO 80212", country. */
export function addressLines(a: AddressFields, withCountry = true): string[] {
  return [
    clean(a.addressLine1),
    clean(a.addressLine2),
    cityLine(a.city, a.region, a.postalCode) || null,
    withCountry ? clean(a.country) : null,
  ].filter((l): l is string => !!l);
}

/** The address on one line: "12 Main St, Unit 4, Denver, CO 80212". */
export const oneLineAddress = (a: AddressFields, withCountry = false) => addressLines(a, withCountry).join(", ");
