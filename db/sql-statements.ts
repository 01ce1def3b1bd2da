/**
 * The SQL text split into its statements, at the semicolons outside quotes, dollar quotes and
 * comments (the migrations' own text: no psql meta-commands).
 */
export function sqlStatements(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      i = end < 0 ? text.length : end + 1; // a doubled quote is two quoted runs back to back
    } else if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end + 1;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 2;
    } else if (
      c === "$" &&
      /^\$[A-Za-z_]\w*\$|^\$\$/.test(text.slice(i, i + 64)) &&
      !/[\w$]/.test(text[i - 1] ?? " ")
    ) {
      const tag = /^\$(?:[A-Za-z_]\w*)?\$/.exec(text.slice(i))![0];
      const end = text.indexOf(tag, i + tag.length);
      i = end < 0 ? text.length : end + tag.length;
    } else if (c === ";") {
      if (text.slice(start, i).trim()) out.push(text.slice(start, i).trim());
      start = ++i;
    } else i++;
  }
  if (text.slice(start).trim()) out.push(text.slice(start).trim());
  return out;
}
