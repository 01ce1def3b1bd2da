// A small standalone HTML page for resource routes (downloads) that must answer with a message
// rather than a file: they have no React page to render (the app's error pages need a UI route).
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function messagePage(
  status: number,
  title: string,
  text: string,
  back = { href: "/", label: "Go to the start page" },
): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Fieldwork</title></head>
<body><main><h1>${escape(title)}</h1><p>${escape(text)}</p><p><a href="${escape(back.href)}">${escape(back.label)}</a></p></main></body></html>`;
  return new Response(html, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}
