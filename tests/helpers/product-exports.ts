// Exports of other products (CONTRACT section 14) with realistic, invented data: the headers as
// each product writes them (docs/decisions/151 cites where they come from), the data made up
// and deterministic. Used by the import tests and the bench.

const FIRST = [
  "Maria",
  "James",
  "Aisha",
  "Tomás",
  "Priya",
  "Daniel",
  "Chloé",
  "Kwame",
  "Hannah",
  "Luis",
  "Mei",
  "Robert",
  "Fatima",
  "Ethan",
  "Sofia",
  "Noah",
  "Zoë",
  "Omar",
  "Grace",
  "Mateo",
];
const LAST = [
  "Okafor",
  "Lindqvist",
  "Brennan",
  "Nakamura",
  "Alvarez",
  "Whitfield",
  "Dubois",
  "Mensah",
  "Kowalski",
  "Patel",
  "Harrington",
  "Castillo",
  "O'Neill",
  "Schneider",
  "Abara",
  "Fitzgerald",
  "Moreau",
  "Tanaka",
  "Reyes",
  "Sullivan",
];
const STREETS = [
  "Barton Springs Rd",
  "Maple Ave",
  "Oak Hollow Dr",
  "Riverside Blvd",
  "Cedar Ln",
  "Lakeview Ct",
  "Elm St",
  "Sunset Ridge",
  "Willow Bend",
  "Pecan St",
];
const CITIES: [string, string, string][] = [
  ["Austin", "TX", "787"],
  ["Round Rock", "TX", "786"],
  ["Denver", "CO", "802"],
  ["Boulder", "CO", "803"],
  ["Portland", "OR", "972"],
];
const COMPANIES = [
  "Hillcrest Property Management",
  "Blue Heron Dental",
  "Oakline Apartments LLC",
  "Greenway Schools",
  "Sunrise Bakery & Café",
  "Northgate Storage",
];

/** RFC 4180: quote a cell when it holds a comma, quote or line break. */
export function csvLine(cells: readonly (string | number)[]): string {
  return cells.map((c) => (/[",\r\n]/.test(String(c)) ? `"${String(c).replace(/"/g, '""')}"` : String(c))).join(",");
}

const pick = <T>(list: readonly T[], i: number) => list[i % list.length];

export interface ExpectedCustomer {
  externalId: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  otherEmails: string[];
  otherPhones: string[];
  company: string | null;
  properties: number;
}

function person(i: number) {
  const first = pick(FIRST, i);
  const last = pick(LAST, Math.floor(i / FIRST.length) + i);
  return {
    first,
    last,
    slug: `${first}.${last}`
      .toLowerCase()
      .normalize("NFD")
      .replace(/[^a-z.]/g, ""),
  };
}

function address(i: number, salt = 0) {
  const [city, state, zip] = pick(CITIES, i + salt);
  return {
    street: `${100 + ((i * 37 + salt * 11) % 9800)} ${pick(STREETS, i + salt * 3)}`,
    unit: (i + salt) % 9 === 0 ? `Unit ${1 + (i % 12)}` : "",
    city,
    state,
    zip: `${zip}${String((i * 7 + salt) % 100).padStart(2, "0")}`,
  };
}

export const JOBBER_HEADERS = [
  "J-ID",
  "Created Date",
  "Is Company?",
  "Display Name",
  "Company Name",
  "Title",
  "First Name",
  "Last Name",
  "Main Phone #s",
  "Mobile Phone #s",
  "Work Phone #s",
  "Home Phone #s",
  "E-mails",
  "Tags",
  "Lead Source",
  "Archived",
  "Billing Street 1",
  "Billing Street 2",
  "Billing City",
  "Billing State",
  "Billing Country",
  "Billing Zip code",
  "Service Property Name",
  "Service Street 1",
  "Service Street 2",
  "Service City",
  "Service State",
  "Service Country",
  "Service Zip code",
  "CFT[Gate Code]",
  "CFT[Have Pets]",
  "CFT[Referred By]",
  "PFT[Access Notes]",
  "PFT[Lot Size]",
  "Receives Reminders?",
  "Receives Follow-ups?",
];

/**
 * Jobber's client export: one row per client and property. `J-ID` = `<client id>_<property id>`,
 * e-mails comma-separated, phones semicolon-separated. Clients 0..(extra2 + extra3) have 2 or 3
 * properties; every 6th client is a company; every 7th has two e-mails, every 5th two phones.
 */
export function jobberClients(
  clients: number,
  opts: { twoProperties?: number; threeProperties?: number; seed?: number; fullNotes?: boolean } = {},
) {
  const two = opts.twoProperties ?? 0;
  const three = opts.threeProperties ?? 0;
  const base = 48_000_000 + (opts.seed ?? 0) * 1_000_000;
  const lines = [csvLine(JOBBER_HEADERS)];
  const expected: ExpectedCustomer[] = [];
  for (let i = 0; i < clients; i++) {
    const p = person(i);
    const isCompany = i % 6 === 3;
    const company = isCompany ? `${pick(COMPANIES, i)} #${i}` : "";
    const display = isCompany ? company : `${p.first} ${p.last}`;
    const emails = [`${p.slug}${i}@example.com`, ...(i % 7 === 0 ? [`${p.slug}${i}.work@example.net`] : [])];
    const phones = [
      `(512) 555-${String(1000 + i).slice(-4)}`,
      ...(i % 5 === 0 ? [`(737) 555-${String(2000 + i).slice(-4)}`] : []),
    ];
    const clientId = base + i;
    const properties = i < three ? 3 : i < three + two ? 2 : 1;
    const billing = address(i);
    for (let k = 0; k < properties; k++) {
      const s = address(i, k);
      lines.push(
        csvLine([
          `${clientId}_${71_000_000 + i * 3 + k}`,
          `2024-0${1 + (i % 9)}-1${i % 10}`,
          isCompany ? "true" : "false",
          display,
          company,
          isCompany ? "" : pick(["Mr.", "Ms.", "Dr.", ""], i),
          isCompany ? "" : p.first,
          isCompany ? "" : p.last,
          phones.join("; "),
          "",
          "",
          "",
          emails.join(", "),
          i % 4 === 0 ? "residential, spring-cleanup" : "",
          pick(["Google", "Referral", "Yard sign", ""], i),
          "false",
          billing.street,
          billing.unit,
          billing.city,
          billing.state,
          "United States",
          billing.zip,
          properties > 1 ? pick(["Home", "Rental", "Cabin", "Office"], k) : "",
          s.street,
          s.unit,
          s.city,
          s.state,
          "United States",
          s.zip,
          i % 3 === 0 ? `#${1000 + i}` : "",
          i % 2 ? "yes" : "no",
          // fullNotes: every custom field filled, as an account that uses them (the 20 MB benchmark file).
          opts.fullNotes ? `${pick(FIRST, i + 7)} ${pick(LAST, i + 3)}, met at the ${s.city} home show` : "",
          opts.fullNotes
            ? `Side gate code #${1000 + ((i * 7) % 9000)}; ${pick(["dog in the back yard", "park on the street, not the driveway", "call 20 minutes ahead", "key under the blue pot"], i + k)}; water shut-off in the garage`
            : i % 5 === 0
              ? "Side gate, beware of dog"
              : "",
          `${(i % 9) + 1}/4 acre`,
          "true",
          "false",
        ]),
      );
    }
    expected.push({
      externalId: String(clientId),
      name: display,
      email: emails[0],
      phone: phones[0],
      otherEmails: emails.slice(1),
      otherPhones: phones.slice(1),
      company: company || null,
      properties,
    });
  }
  return { csv: `${lines.join("\r\n")}\r\n`, expected };
}

/** Housecall Pro's customer export: numbered `Address_N ...` groups, several phone columns. */
export function housecallProCustomers(count: number) {
  const groups = 3;
  const headers = [
    "First Name",
    "Last Name",
    "Display Name",
    "Mobile Number",
    "Home Number",
    "Email",
    "Additional Emails",
    "Company",
    "Role",
    "Work Number",
    "ID",
    "Notes",
    "Do Not Service",
    "Customer Type",
    "Customer Tags",
    "Lead Source",
    "Last service date",
    "Lifetime value",
  ];
  for (let n = 1; n <= groups; n++) {
    headers.push(
      ...["Street Line 1", "Street Line 2", "City", "State", "Postal Code", "Billing?", "Notes"].map(
        (h) => `Address_${n} ${h}`,
      ),
    );
  }
  const lines = [csvLine(headers)];
  const expected: ExpectedCustomer[] = [];
  for (let i = 0; i < count; i++) {
    const p = person(i + 7);
    const business = i % 5 === 2;
    const display = business ? `${pick(COMPANIES, i)} (${p.last})` : `${p.first} ${p.last}`;
    const extra = i % 4 === 0 ? [`${p.slug}.alt${i}@example.org`, `${p.slug}.office${i}@example.org`] : [];
    const mobile = `512-555-${String(3000 + i).slice(-4)}`;
    const home = i % 3 === 0 ? `512-555-${String(6000 + i).slice(-4)}` : "";
    const addresses = 1 + (i % 3);
    const row = [
      p.first,
      p.last,
      display,
      mobile,
      home,
      `${p.slug}.${i}@example.com`,
      extra.join(", "),
      business ? pick(COMPANIES, i) : "",
      business ? "Facilities manager" : "",
      "",
      `cus_${(0x5f3a00 + i).toString(16)}`,
      i % 6 === 0 ? "Prefers text messages" : "",
      "false",
      business ? "Business" : "Homeowner",
      "",
      pick(["Google", "Angi", "Nextdoor"], i),
      `0${1 + (i % 9)}/1${i % 10}/2025`,
      `$${(i * 37) % 4000}.00`,
    ];
    for (let n = 1; n <= groups; n++) {
      if (n <= addresses) {
        const a = address(i, n);
        row.push(
          a.street,
          a.unit,
          a.city,
          a.state,
          a.zip,
          n === 1 ? "true" : "false",
          n === 2 ? "Key under the mat" : "",
        );
      } else row.push("", "", "", "", "", "", "");
    }
    lines.push(csvLine(row));
    expected.push({
      externalId: `cus_${(0x5f3a00 + i).toString(16)}`,
      name: display,
      email: `${p.slug}.${i}@example.com`,
      phone: mobile,
      otherEmails: extra,
      otherPhones: home ? [home] : [],
      company: business ? pick(COMPANIES, i) : null,
      properties: addresses,
    });
  }
  return { csv: `${lines.join("\r\n")}\r\n`, expected };
}

/** QuickBooks Online's customer list (Sales > Customers > Export). */
export function quickbooksCustomers(count: number) {
  const headers = [
    "Customer",
    "Company",
    "Street Address",
    "City",
    "State",
    "Country",
    "Zip",
    "Phone",
    "Email",
    "Attachments",
    "Open Balance",
    "Notes",
  ];
  const lines = [csvLine(headers)];
  const expected: ExpectedCustomer[] = [];
  for (let i = 0; i < count; i++) {
    const p = person(i + 3);
    const a = address(i, 2);
    const company = i % 4 === 1 ? pick(COMPANIES, i) : "";
    const name = `${p.first} ${p.last}`;
    const email = `${p.slug}.qb${i}@example.com`;
    const phone = `(303) 555-${String(4000 + i).slice(-4)}`;
    lines.push(
      csvLine([
        name,
        company,
        [a.street, a.unit].filter(Boolean).join(" "),
        a.city,
        a.state,
        "USA",
        a.zip,
        phone,
        email,
        "",
        `${(i * 53) % 900}.00`,
        i % 5 === 0 ? "Net 30" : "",
      ]),
    );
    expected.push({
      externalId: null,
      name,
      email,
      phone,
      otherEmails: [],
      otherPhones: [],
      company: company || null,
      properties: 0,
    });
  }
  return { csv: `${lines.join("\r\n")}\r\n`, expected };
}

/**
 * Invoice Ninja's client export (v5 ClientExport columns, English labels). `prefixed`: its entity-prefixed headers ("Client Name",
 * "Contact First Name", ...), and every 4th client without a name (the contact's names stand in).
 */
export function invoiceNinjaClients(count: number, opts: { prefixed?: boolean } = {}) {
  const plain = [
    "Name",
    "Number",
    "ID Number",
    "VAT Number",
    "Website",
    "Phone",
    "Address 1",
    "Address 2",
    "City",
    "State",
    "Postal Code",
    "Country",
    "Shipping Address 1",
    "Shipping Address 2",
    "Shipping City",
    "Shipping State",
    "Shipping Postal Code",
    "Shipping Country",
    "Private Notes",
    "Public Notes",
    "Currency",
    "Balance",
    "Paid to Date",
    "First Name",
    "Last Name",
    "Email",
    "Contact Phone",
  ];
  const contactFields = new Set(["First Name", "Last Name", "Email"]);
  const headers = opts.prefixed
    ? plain.map((h) => (h === "Contact Phone" ? h : contactFields.has(h) ? `Contact ${h}` : `Client ${h}`))
    : plain;
  const lines = [csvLine(headers)];
  const expected: ExpectedCustomer[] = [];
  for (let i = 0; i < count; i++) {
    const p = person(i + 11);
    const a = address(i, 4);
    const s = i % 3 === 0 ? address(i, 5) : null;
    const unnamed = opts.prefixed && i % 4 === 0;
    const name = i % 2 ? `${pick(COMPANIES, i)} ${i}` : `${p.first} ${p.last}`;
    const phone = i % 2 ? `+1 503 555 ${String(5000 + i).slice(-4)}` : "";
    const contactPhone = `+1 971 555 ${String(7000 + i).slice(-4)}`;
    const number = String(100 + i).padStart(4, "0");
    lines.push(
      csvLine([
        unnamed ? "" : name,
        number,
        i % 2 ? `EIN-${10000 + i}` : "",
        "",
        i % 2 ? `https://client${i}.example.com` : "",
        phone,
        a.street,
        a.unit,
        a.city,
        a.state,
        a.zip,
        "United States",
        s?.street ?? "",
        s?.unit ?? "",
        s?.city ?? "",
        s?.state ?? "",
        s?.zip ?? "",
        s ? "United States" : "",
        i % 4 === 0 ? "Pays by check" : "",
        "",
        "USD",
        `${(i * 19) % 500}.00`,
        "0.00",
        p.first,
        p.last,
        `${p.slug}.in${i}@example.com`,
        contactPhone,
      ]),
    );
    expected.push({
      externalId: number,
      name,
      email: `${p.slug}.in${i}@example.com`,
      phone: phone || contactPhone,
      otherEmails: [],
      otherPhones: phone ? [contactPhone] : [],
      company: null,
      properties: s ? 1 : 0,
    });
  }
  return { csv: `${lines.join("\r\n")}\r\n`, expected };
}
