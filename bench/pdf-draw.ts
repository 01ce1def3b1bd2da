// `npx tsx bench/pdf-draw.ts`: in-process CPU of drawing one 50-line invoice (the P2 bench's shape)
// with renderPdf, after 15 warm-up drawings; no server, no database (docs/decisions/491).
import { renderPdf, type PdfDocument } from "../app/services/documents/pdf-layout.server";
const doc: PdfDocument = {
  heading: "Invoice",
  paper: "LETTER",
  business: {
    name: "Northwind Plumbing & Heating",
    lines: ["12 Harbour Road", "Portland, OR 97201", "(503) 555-0100"],
  },
  customer: { heading: "Bill to", name: "Nguyễn Văn Tiến", lines: ["44 Elm Street", "Portland, OR 97202"] },
  number: "INV-10234",
  title: "Boiler service and repairs",
  facts: [
    ["Issued", "Nov 28, 2026"],
    ["Due", "Dec 28, 2026"],
    ["Status", "Sent"],
  ],
  currency: "USD",
  lines: Array.from({ length: 50 }, (_, i) => ({
    description: `Replace ${i % 5 ? "3/4 inch copper fitting and check the valve" : "pressure relief valve on the boiler, test and record readings"} #${i + 1}`,
    quantity: String((i % 4) + 1),
    unitPriceCents: 1250 + i * 37,
    taxRate: "8.25%",
    amountCents: (1250 + i * 37) * ((i % 4) + 1),
  })),
  totals: [
    { label: "Subtotal", cents: 512300 },
    { label: "Tax", cents: 42265 },
    { label: "Total", cents: 554565 },
    { label: "Paid", cents: 100000 },
    { label: "Balance due", cents: 454565, strong: true },
  ],
  payments: [{ date: "Nov 20, 2026", method: "Card", reference: "ch_123", amountCents: 100000 }],
  paragraphs: [
    {
      heading: "Notes",
      text: "Thank you for your business. Payment is due within 30 days. Please include the invoice number with your payment.",
    },
  ],
  footer: "Northwind Plumbing & Heating · Invoice INV-10234",
};
for (let i = 0; i < 15; i++) await renderPdf(doc);
const n = 60,
  c0 = process.cpuUsage();
let bytes = 0;
for (let i = 0; i < n; i++) bytes = (await renderPdf(doc)).length;
const c = process.cpuUsage(c0);
console.log(process.argv[2] ?? "", ((c.user + c.system) / n / 1000).toFixed(2), "ms CPU per invoice;", bytes, "bytes");
