// Sample CSVs for GET /import-data/sample: a plumbing, HVAC and electrical
// business in Austin. Valid, and importable in the order customers, team, jobs, quotes,
// invoices into an empty tenant: later samples reference the customers' emails and external
// ids and the team's emails. tests/unit/import-samples.test.ts holds them to that.
import { IMPORT_COLUMNS, type ImportType } from "./columns";
import { toCsv } from "./csv-write";

type Row = Record<string, string>;

const TEAM: Row[] = [
  { name: "Marisol Duarte", email: "marisol@duartehome.example", role: "admin", phone: "+1 512 555 0100" },
  { name: "Kwame Mensah", email: "kwame@duartehome.example", role: "office", phone: "(512) 555-0101" },
  { name: "Renée Lavoie", email: "renee@duartehome.example", role: "office" },
  {
    name: "Tomás Ibáñez",
    email: "tomas@duartehome.example",
    role: "technician",
    phone: "+1 512 555 0111",
    hourly_rate: "68.50",
  },
  {
    name: "Aiko Tanaka (田中 愛子)",
    email: "aiko@duartehome.example",
    role: "technician",
    phone: "+1 512 555 0112",
    hourly_rate: "72.00",
  },
  {
    name: "Björn Halvorsen",
    email: "bjorn@duartehome.example",
    role: "technician",
    phone: "+1 512 555 0113",
    hourly_rate: "65",
  },
  {
    name: "Dev Patel",
    email: "dev@duartehome.example",
    role: "technician",
    phone: "512.555.0114",
    hourly_rate: "58.75",
  },
  { name: "Chloé Martin", email: "chloe@duartehome.example", role: "technician", hourly_rate: "55.00" },
];

const austin = { city: "Austin", region: "TX", country: "US" };
const CUSTOMERS: Row[] = [
  {
    name: "Zoë Kowalski",
    email: "zoe.kowalski@example.com",
    phone: "+1 512 555 0142",
    address_line1: "1208 Barton Springs Rd",
    ...austin,
    postal_code: "78704",
    external_id: "CUST-1001",
  },
  {
    name: "José Álvarez",
    company: "Álvarez Family Dental",
    email: "jose@alvarezdental.example",
    phone: "(512) 555-0187 x12",
    address_line1: "4410 Burnet Rd",
    address_line2: "Suite 200",
    ...austin,
    postal_code: "78756",
    external_id: "CUST-1002",
  },
  {
    name: "Priya Raman",
    company: "Brennan, Hart & Co.",
    email: "priya.raman@brennanhart.example",
    phone: "512-555-0133",
    address_line1: "98 San Jacinto Blvd",
    address_line2: "Floor 7",
    ...austin,
    postal_code: "78701",
    notes: "Office building; rooftop access via freight elevator.",
    external_id: "CUST-1003",
  },
  {
    name: "François Lefèvre",
    email: "f.lefevre@example.net",
    phone: "+1 512 555 0176",
    address_line1: "2301 Lakeshore Blvd",
    city: "Round Rock",
    region: "TX",
    postal_code: "78681",
    country: "US",
    external_id: "CUST-1004",
  },
  {
    name: "Siobhán O'Neill",
    email: "siobhan.oneill@example.org",
    phone: "+1 737 555 0119",
    address_line1: "77 Rainey St",
    address_line2: "Apt 1504",
    ...austin,
    postal_code: "78701",
    notes:
      "Call 30 minutes before arriving.\nConcierge holds the spare key; the building needs a certificate of insurance on file.",
    external_id: "CUST-1005",
  },
  {
    name: "Nguyễn Thị Mai",
    email: "mai.nguyen@example.com",
    phone: "+1 512 555 0164",
    address_line1: "5605 N Lamar Blvd",
    ...austin,
    postal_code: "78751",
    external_id: "CUST-1006",
  },
  {
    name: "Greta Müller",
    company: "Müller Property Group",
    email: "Greta.Mueller@muellerproperty.example",
    phone: "+1 512 555 0190",
    address_line1: "1600 E 6th St",
    ...austin,
    postal_code: "78702",
    notes: "Manages 14 rental units; invoices to accounts payable.",
    external_id: "CUST-1007",
  },
  {
    name: "Ahmed Al-Sayed",
    email: "ahmed.alsayed@example.com",
    phone: "+1 512 555 0158",
    address_line1: "3912 Avenue H",
    ...austin,
    postal_code: "78751",
    external_id: "CUST-1008",
  },
  {
    name: "Marcus Bell",
    company: "Riverside Elementary School",
    email: "facilities@riverside-isd.example",
    phone: "+1 512 555 0100 ext 4",
    address_line1: "2200 Riverside Dr",
    ...austin,
    postal_code: "78741",
    notes: "Work only after 16:00 on school days.",
    external_id: "CUST-1009",
  },
  {
    name: "Olivia Chen",
    email: "olivia.chen@example.com",
    phone: "+1 512 555 0172",
    address_line1: "812 W 12th St",
    ...austin,
    postal_code: "78701",
    external_id: "CUST-1010",
  },
  {
    name: "Hannah Kim",
    phone: "+1 512 555 0127",
    address_line1: "4501 Duval St",
    ...austin,
    postal_code: "78751",
    notes: "No email: send paperwork by mail.",
    external_id: "CUST-1011",
  },
  {
    name: "Lukáš Novák",
    phone: "+1 737 555 0131",
    address_line1: "1100 S Congress Ave",
    ...austin,
    postal_code: "78704",
    external_id: "CUST-1012",
  },
];

const JOBS: Row[] = [
  {
    title: "Replace 50 gal gas water heater",
    customer_email: "zoe.kowalski@example.com",
    description: "Existing unit leaking at the base. Bring expansion tank.",
    status: "scheduled",
    scheduled_start: "2026-07-06T08:00:00-05:00",
    scheduled_end: "2026-07-06T12:00:00-05:00",
    assignee_email: "tomas@duartehome.example",
    address: "1208 Barton Springs Rd, Austin, TX 78704",
    external_id: "JOB-5001",
  },
  {
    title: "Dental chair water line inspection",
    customer_email: "jose@alvarezdental.example",
    status: "scheduled",
    scheduled_start: "2026-07-07T17:30:00-05:00",
    scheduled_end: "2026-07-07T19:00:00-05:00",
    assignee_email: "aiko@duartehome.example",
    external_id: "JOB-5002",
  },
  {
    title: "Rooftop AC unit not cooling",
    customer_email: "priya.raman@brennanhart.example",
    description: "Unit 2 of 3 blowing warm air.\nCheck capacitor and refrigerant charge.",
    status: "completed",
    scheduled_start: "2026-06-15T09:00:00-05:00",
    scheduled_end: "2026-06-15T13:30:00-05:00",
    assignee_email: "bjorn@duartehome.example",
    external_id: "JOB-5003",
  },
  {
    title: "Install whole-home surge protector",
    customer_email: "f.lefevre@example.net",
    scheduled_start: "2026-07-08T13:00:00-05:00",
    scheduled_end: "2026-07-08T15:00:00-05:00",
    assignee_email: "dev@duartehome.example",
    external_id: "JOB-5004",
  },
  {
    title: "Mini-split annual service",
    customer_email: "siobhan.oneill@example.org",
    status: "completed",
    scheduled_start: "2026-06-10T10:00:00-05:00",
    scheduled_end: "2026-06-10T11:30:00-05:00",
    assignee_email: "bjorn@duartehome.example",
    external_id: "JOB-5005",
  },
  {
    title: "Kitchen sink slow drain",
    customer_email: "mai.nguyen@example.com",
    status: "unscheduled",
    external_id: "JOB-5006",
  },
  {
    title: "Burst pipe, unit 3B",
    customer_email: "greta.mueller@muellerproperty.example",
    description: "Tenant shut off the water main. Drywall is open.",
    status: "completed",
    scheduled_start: "2026-06-12T21:15:00-05:00",
    scheduled_end: "2026-06-12T23:45:00-05:00",
    assignee_email: "tomas@duartehome.example",
    address: "1600 E 6th St, Unit 3B, Austin, TX 78702",
    external_id: "JOB-5007",
  },
  {
    title: "Panel upgrade to 200 A",
    customer_email: "jose@alvarezdental.example",
    status: "scheduled",
    scheduled_start: "2026-07-20T07:30:00-05:00",
    scheduled_end: "2026-07-20T16:00:00-05:00",
    assignee_email: "dev@duartehome.example",
    external_id: "JOB-5008",
  },
  {
    title: "Backflow preventer annual test",
    customer_email: "facilities@riverside-isd.example",
    status: "cancelled",
    assignee_email: "chloe@duartehome.example",
    external_id: "JOB-5009",
  },
  {
    title: "Leak under kitchen sink",
    customer_external_id: "CUST-1011",
    status: "unscheduled",
    description: "Customer prefers mornings.",
    external_id: "JOB-5010",
  },
  {
    title: "EV charger circuit",
    customer_external_id: "CUST-1012",
    status: "scheduled",
    scheduled_start: "2026-07-09T09:00:00-05:00",
    scheduled_end: "2026-07-09T14:00:00-05:00",
    assignee_email: "dev@duartehome.example",
    external_id: "JOB-5011",
  },
  {
    title: "Thermostat replacement",
    customer_email: "olivia.chen@example.com",
    customer_external_id: "CUST-1010",
    scheduled_start: "2026-07-10T14:00:00Z",
    assignee_email: "chloe@duartehome.example",
    external_id: "JOB-5012",
  },
];

/** One row per line item, the document columns repeated on each. */
function documentRows(header: Row, items: Row[]): Row[] {
  return items.map((item) => ({ ...header, ...item }));
}

const QUOTES: Row[] = [
  ...documentRows(
    {
      number: "Q-1001",
      customer_email: "zoe.kowalski@example.com",
      title: "Water heater replacement",
      status: "sent",
      issue_date: "2026-06-20",
      valid_until: "2026-07-20",
      currency: "USD",
      notes: "Includes haul-away of the old unit.\nPermit not required for like-for-like replacement.",
    },
    [
      {
        item_description: "50 gal gas water heater, Rheem Performance Plus",
        item_quantity: "1",
        item_unit_price: "1149.00",
        tax_rate: "8.25",
      },
      { item_description: "Installation labour", item_quantity: "4", item_unit_price: "95.00", tax_rate: "0" },
      {
        item_description: "Expansion tank and fittings",
        item_quantity: "1",
        item_unit_price: "86.40",
        tax_rate: "8.25",
      },
      { item_description: "Disposal of old unit", item_quantity: "1", item_unit_price: "45.00" },
    ],
  ),
  ...documentRows(
    {
      number: "Q-1002",
      customer_external_id: "CUST-1003",
      title: "Rooftop AC maintenance plan, 12 months",
      status: "draft",
      issue_date: "2026-06-22",
      valid_until: "2026-07-22",
      currency: "USD",
    },
    [
      {
        item_description: "Quarterly service visit, 3 rooftop units",
        item_quantity: "4",
        item_unit_price: "385.00",
        tax_rate: "8.25",
      },
      { item_description: "Filter set, MERV 13", item_quantity: "12", item_unit_price: "24.75", tax_rate: "8.25" },
      { item_description: "Coil cleaning", item_quantity: "3", item_unit_price: "140.00", tax_rate: "8.25" },
    ],
  ),
  ...documentRows(
    {
      number: "Q-1003",
      customer_email: "jose@alvarezdental.example",
      title: "Electrical panel upgrade to 200 A",
      status: "approved",
      issue_date: "2026-06-18",
      valid_until: "2026-07-18",
      currency: "USD",
      notes: "Utility disconnect scheduled by us.",
    },
    [
      {
        item_description: "200 A panel with breakers",
        item_quantity: "1",
        item_unit_price: "1890.00",
        tax_rate: "8.25",
      },
      { item_description: "Electrician labour", item_quantity: "8.5", item_unit_price: "110.00", tax_rate: "0" },
      { item_description: "City electrical permit", item_quantity: "1", item_unit_price: "175.00", tax_rate: "0" },
    ],
  ),
  ...documentRows(
    {
      number: "Q-1004",
      customer_external_id: "CUST-1011",
      title: "Leak repair under kitchen sink",
      status: "declined",
      issue_date: "2026-06-25",
      valid_until: "2026-07-09",
      currency: "USD",
    },
    [
      {
        item_description: "Replace P-trap and supply lines",
        item_quantity: "1",
        item_unit_price: "265.00",
        tax_rate: "8.25",
      },
    ],
  ),
];

// Totals (round half up per line): INV-2001 = 189.00 + 125.00 + 25.00 + 2.06 tax = 341.06;
// INV-2002 = 240.00 + 170.00 + 14.03 tax = 424.03, of which 200.00 paid.
const INVOICES: Row[] = [
  ...documentRows(
    {
      number: "INV-2001",
      customer_email: "zoe.kowalski@example.com",
      status: "paid",
      issue_date: "2026-06-16",
      due_date: "2026-06-30",
      currency: "USD",
      amount_paid: "341.06",
    },
    [
      { item_description: "Main line drain cleaning", item_quantity: "1", item_unit_price: "189.00", tax_rate: "0" },
      { item_description: "Sewer camera inspection", item_quantity: "1", item_unit_price: "125.00", tax_rate: "0" },
      { item_description: "Cleanout cap, 4 in PVC", item_quantity: "2", item_unit_price: "12.50", tax_rate: "8.25" },
    ],
  ),
  ...documentRows(
    {
      number: "INV-2002",
      customer_email: "siobhan.oneill@example.org",
      status: "partial",
      issue_date: "2026-06-10",
      due_date: "2026-07-10",
      currency: "USD",
      amount_paid: "200.00",
    },
    [
      { item_description: "Ductless mini-split service", item_quantity: "1", item_unit_price: "240.00", tax_rate: "0" },
      {
        item_description: "Refrigerant R-410A, per lb",
        item_quantity: "2.5",
        item_unit_price: "68.00",
        tax_rate: "8.25",
      },
    ],
  ),
  ...documentRows(
    {
      number: "INV-2003",
      customer_email: "greta.mueller@muellerproperty.example",
      status: "sent",
      issue_date: "2026-06-13",
      due_date: "2026-07-13",
      currency: "USD",
    },
    [
      { item_description: "Emergency call-out, after hours", item_quantity: "1", item_unit_price: "150.00" },
      { item_description: "Burst pipe repair, 3/4 in copper", item_quantity: "1", item_unit_price: "320.00" },
    ],
  ),
  ...documentRows(
    {
      number: "INV-2004",
      customer_external_id: "CUST-1012",
      status: "draft",
      issue_date: "2026-07-09",
      due_date: "2026-08-08",
      currency: "USD",
    },
    [
      { item_description: "EV charger circuit, 50 A", item_quantity: "1", item_unit_price: "685.00", tax_rate: "8.25" },
      { item_description: "Permit fee", item_quantity: "1", item_unit_price: "95.00", tax_rate: "0" },
    ],
  ),
  ...documentRows(
    {
      number: "INV-2005",
      customer_email: "facilities@riverside-isd.example",
      status: "void",
      issue_date: "2026-06-01",
      due_date: "2026-07-01",
      currency: "USD",
      amount_paid: "0",
    },
    [{ item_description: "Backflow preventer annual test", item_quantity: "3", item_unit_price: "85.00" }],
  ),
];

const SAMPLES: Record<ImportType, Row[]> = {
  customers: CUSTOMERS,
  team: TEAM,
  jobs: JOBS,
  quotes: QUOTES,
  invoices: INVOICES,
};

export function sampleCsv(type: ImportType): string {
  const columns = IMPORT_COLUMNS[type].map((c) => c.name);
  return toCsv(
    columns,
    SAMPLES[type].map((row) => columns.map((c) => row[c] ?? "")),
  );
}

export function sampleFilename(type: ImportType): string {
  return `${type}-sample.csv`;
}
