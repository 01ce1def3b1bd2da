// Known headers as data (docs/decisions/150-151): aliases of each field,
// headers that could mean two fields, and the exports of other products. Adding a product is
// adding a row to PRESETS; no code changes. Safe in the browser (plain data).
import type { ImportType } from "../columns";

/** Headers that mean one field outright, per type. Compared normalised (see `normaliseHeader`). */
export interface AliasRow {
  type: ImportType;
  field: string;
  aliases: readonly string[];
}

export const ALIASES: readonly AliasRow[] = [
  {
    type: "customers",
    field: "name",
    aliases: ["Customer", "Customer Name", "Client", "Client Name", "Full Name", "Display Name", "Contact Name"],
  },
  { type: "customers", field: "first_name", aliases: ["First Name", "Given Name", "First"] },
  { type: "customers", field: "last_name", aliases: ["Last Name", "Surname", "Family Name", "Last"] },
  {
    type: "customers",
    field: "company",
    aliases: ["Company Name", "Business", "Business Name", "Organisation", "Organization"],
  },
  {
    type: "customers",
    field: "email",
    aliases: ["E-mail", "E-mails", "Emails", "Email Address", "Main Email", "Primary Email", "Additional Emails"],
  },
  {
    type: "customers",
    field: "phone",
    aliases: [
      "Phone Number",
      "Phones",
      "Telephone",
      "Tel",
      "Mobile",
      "Mobile Number",
      "Mobile Phone",
      "Cell",
      "Cell Phone",
      "Home Number",
      "Home Phone",
      "Work Number",
      "Work Phone",
      "Main Phone",
    ],
  },
  {
    type: "customers",
    field: "address_line1",
    aliases: [
      "Street",
      "Street 1",
      "Street Address",
      "Address 1",
      "Address Line 1",
      "Billing Street",
      "Billing Street 1",
      "Billing Address 1",
      "Bill Address 1",
    ],
  },
  {
    type: "customers",
    field: "address_line2",
    aliases: [
      "Street 2",
      "Address 2",
      "Address Line 2",
      "Billing Street 2",
      "Billing Address 2",
      "Bill Address 2",
      "Unit",
      "Suite",
    ],
  },
  { type: "customers", field: "city", aliases: ["Town", "Billing City", "Bill City"] },
  {
    type: "customers",
    field: "region",
    aliases: [
      "State",
      "Province",
      "Province/State",
      "State/Province",
      "County",
      "Billing State",
      "Billing Province",
      "Bill State",
    ],
  },
  {
    type: "customers",
    field: "postal_code",
    aliases: [
      "Zip",
      "Zip Code",
      "ZIP/Postal Code",
      "Postcode",
      "Post Code",
      "Postal",
      "Billing Zip",
      "Billing Zip Code",
      "Billing Postal Code",
      "Bill Zip",
    ],
  },
  { type: "customers", field: "country", aliases: ["Billing Country", "Bill Country", "Country Code"] },
  {
    type: "customers",
    field: "notes",
    aliases: ["Note", "Comments", "Comment", "Private Notes", "Internal Notes", "Memo"],
  },
  {
    type: "customers",
    field: "external_id",
    aliases: ["ID", "Customer ID", "Client ID", "Customer Number", "Client Number", "Account Number", "Reference"],
  },
  { type: "jobs", field: "title", aliases: ["Job Title", "Job", "Job Name", "Name", "Summary"] },
  { type: "jobs", field: "description", aliases: ["Job Description", "Details", "Instructions", "Notes"] },
  { type: "jobs", field: "customer_email", aliases: ["Client Email", "Customer Email", "Email"] },
  { type: "jobs", field: "customer_external_id", aliases: ["Client ID", "Customer ID"] },
  { type: "jobs", field: "status", aliases: ["Job Status", "State"] },
  {
    type: "jobs",
    field: "scheduled_start",
    aliases: [
      "Start",
      "Start Time",
      "Start Date",
      "Scheduled Start",
      "Job Scheduled Start Date",
      "Scheduled Start Date",
      "Visit Start",
    ],
  },
  {
    type: "jobs",
    field: "scheduled_end",
    aliases: [
      "End",
      "End Time",
      "End Date",
      "Scheduled End",
      "Job Scheduled End Date",
      "Scheduled End Date",
      "Visit End",
    ],
  },
  { type: "jobs", field: "assignee_email", aliases: ["Assignee", "Assigned To Email", "Technician Email"] },
  { type: "jobs", field: "address", aliases: ["Job Address", "Service Address", "Location"] },
  { type: "jobs", field: "external_id", aliases: ["Job #", "Job Number", "Job ID", "ID"] },
  { type: "team", field: "name", aliases: ["Full Name", "Employee", "Employee Name", "Member"] },
  { type: "team", field: "email", aliases: ["E-mail", "Email Address"] },
  { type: "team", field: "phone", aliases: ["Mobile", "Phone Number", "Mobile Number"] },
  { type: "team", field: "hourly_rate", aliases: ["Rate", "Hourly Rate ($)", "Wage", "Pay Rate"] },
  { type: "quotes", field: "number", aliases: ["Quote #", "Quote Number", "Estimate #", "Estimate Number"] },
  { type: "invoices", field: "number", aliases: ["Invoice #", "Invoice Number", "Invoice No"] },
  { type: "quotes", field: "item_description", aliases: ["Description", "Line Item", "Item", "Product/Service"] },
  { type: "invoices", field: "item_description", aliases: ["Description", "Line Item", "Item", "Product/Service"] },
  { type: "quotes", field: "item_quantity", aliases: ["Qty", "Quantity"] },
  { type: "invoices", field: "item_quantity", aliases: ["Qty", "Quantity"] },
  { type: "quotes", field: "item_unit_price", aliases: ["Unit Price", "Rate", "Price", "Unit Cost"] },
  { type: "invoices", field: "item_unit_price", aliases: ["Unit Price", "Rate", "Price", "Unit Cost"] },
];

/** Headers that could mean more than one field: the mapping step asks, preselecting the first. */
export interface AmbiguousRow {
  type: ImportType;
  header: string;
  fields: readonly string[];
}

export const AMBIGUOUS: readonly AmbiguousRow[] = [
  { type: "customers", header: "Contact", fields: ["name", "phone", "email"] },
  { type: "customers", header: "Contact Info", fields: ["phone", "email"] },
  { type: "customers", header: "Address", fields: ["address_line1", "property_line1"] },
  { type: "customers", header: "Location", fields: ["property_label", "address_line1"] },
  { type: "customers", header: "Number", fields: ["phone", "external_id"] },
  { type: "jobs", header: "Customer", fields: ["customer_external_id", "customer_email"] },
  { type: "jobs", header: "Date", fields: ["scheduled_start", "scheduled_end"] },
];

/**
 * Another product's export, recognised by its headers. `columns` maps its headers to fields;
 * `numbered` maps groups with a number in the header (`{n}`) to the Nth service property.
 * Columns of the export not listed are ignored (named in the preview's warnings).
 */
export interface Preset {
  id: string;
  product: string;
  label: string;
  type: ImportType;
  /** Every one of these headers must be in the file. */
  signature: readonly string[];
  columns: Readonly<Record<string, string>>;
  numbered?: readonly { header: string; field: string }[];
  /** Rows sharing this field's value are one record (one row per client and property). */
  mergeBy?: string;
  /** The external id is the part of the cell before the first `_` (Jobber's `J-ID`). */
  externalIdBefore?: string;
  /** How the product writes numeric dates when a file's values do not settle it (decision 220). */
  dateOrder?: "mdy" | "dmy";
  /** Where the headers came from (docs/decisions/151). */
  source: string;
}

export const PRESETS: readonly Preset[] = [
  {
    id: "jobber-clients",
    product: "Jobber",
    label: "Jobber client export",
    type: "customers",
    // J-ID is Jobber's own id column: it alone tells the export apart.
    signature: ["J-ID"],
    columns: {
      "J-ID": "external_id",
      "Display Name": "name",
      "Company Name": "company",
      // Kept in the customer's notes as "Title: Dr." and "Tags: residential, spring-cleanup".
      Title: "notes",
      Tags: "notes",
      "First Name": "first_name",
      "Last Name": "last_name",
      "E-mails": "email",
      "Main Phone #s": "phone",
      "Mobile Phone #s": "phone",
      "Work Phone #s": "phone",
      "Home Phone #s": "phone",
      "Billing Street 1": "address_line1",
      "Billing Street 2": "address_line2",
      "Billing City": "city",
      "Billing State": "region",
      "Billing Zip code": "postal_code",
      "Billing Country": "country",
      "Service Property Name": "property_label",
      "Service Street 1": "property_line1",
      "Service Street 2": "property_line2",
      "Service City": "property_city",
      "Service State": "property_region",
      "Service Zip code": "property_postal_code",
      "Service Country": "property_country",
    },
    mergeBy: "external_id",
    externalIdBefore: "_",
    dateOrder: "mdy",
    source:
      "Jobber client export columns as read by public import code (J-ID, Is Company?, Display Name, Main Phone #s, E-mails, Billing/Service groups)",
  },
  {
    id: "housecall-pro-customers",
    product: "Housecall Pro",
    label: "Housecall Pro customer export",
    type: "customers",
    signature: ["Display Name", "First Name", "Last Name", "Mobile Number", "Address_1 Street Line 1"],
    columns: {
      ID: "external_id",
      "Display Name": "name",
      "First Name": "first_name",
      "Last Name": "last_name",
      Company: "company",
      Email: "email",
      "Additional Emails": "email",
      "Mobile Number": "phone",
      "Home Number": "phone",
      "Work Number": "phone",
      Notes: "notes",
    },
    numbered: [
      { header: "Address_{n} Street Line 1", field: "property_line1" },
      { header: "Address_{n} Street Line 2", field: "property_line2" },
      { header: "Address_{n} City", field: "property_city" },
      { header: "Address_{n} State", field: "property_region" },
      { header: "Address_{n} Postal Code", field: "property_postal_code" },
      { header: "Address_{n} Country", field: "property_country" },
    ],
    source:
      "Housecall Pro customer export: help.housecallpro.com exported report breakdown, and public code reading its CSV (Address_N Street Line 1 ...)",
  },
  {
    id: "quickbooks-online-customers",
    product: "QuickBooks Online",
    label: "QuickBooks Online customer list",
    type: "customers",
    signature: ["Customer", "Company", "Street Address", "Open Balance"],
    columns: {
      Customer: "name",
      Company: "company",
      "Street Address": "address_line1",
      City: "city",
      State: "region",
      Country: "country",
      Zip: "postal_code",
      Phone: "phone",
      Email: "email",
      Notes: "notes",
    },
    source: "QuickBooks Online Sales > Customers > Export to Excel (customer list columns)",
  },
  {
    id: "invoice-ninja-clients",
    product: "Invoice Ninja",
    label: "Invoice Ninja client export",
    type: "customers",
    signature: ["Name", "Number", "ID Number", "VAT Number", "Address 1"],
    columns: {
      Name: "name",
      Number: "external_id",
      "First Name": "first_name",
      "Last Name": "last_name",
      Email: "email",
      "Contact Phone": "phone",
      Phone: "phone",
      "Address 1": "address_line1",
      "Address 2": "address_line2",
      City: "city",
      State: "region",
      "Postal Code": "postal_code",
      Country: "country",
      "Private Notes": "notes",
      "Shipping Address 1": "property_line1",
      "Shipping Address 2": "property_line2",
      "Shipping City": "property_city",
      "Shipping State": "property_region",
      "Shipping Postal Code": "property_postal_code",
      "Shipping Country": "property_country",
    },
    source:
      "Invoice Ninja v5 app/Export/CSV/ClientExport.php entity keys (client.name, client.number, client.id_number, ...), headers as its English labels",
  },
  {
    id: "jobber-jobs",
    product: "Jobber",
    label: "Jobber jobs export",
    type: "jobs",
    signature: ["Job #", "Client name", "Title"],
    columns: {
      "Job #": "external_id",
      Title: "title",
      "Client email": "customer_email",
      Instructions: "description",
      "Service street": "address",
      "Scheduled start date": "scheduled_start",
    },
    // "Nov 24, 2026", or the account's numeric format ("11/24/2026", "24/11/2026 09:00").
    dateOrder: "mdy",
    source: "Jobber jobs report export (Job #, Client name, Client email, Title, Service street ...)",
  },
  {
    id: "housecall-pro-jobs",
    product: "Housecall Pro",
    label: "Housecall Pro jobs export",
    type: "jobs",
    signature: ["Job #", "Customer email", "Job description"],
    columns: {
      "Job #": "external_id",
      "Job description": "title",
      "Customer email": "customer_email",
      "Job scheduled start date": "scheduled_start",
      "Job scheduled end date": "scheduled_end",
      Address: "address",
    },
    // ISO 8601 with an offset in its exports; month-first when a spreadsheet rewrote them.
    dateOrder: "mdy",
    source: "Housecall Pro jobs report export (Job #, Customer, Job description, Job scheduled start date ...)",
  },
];
