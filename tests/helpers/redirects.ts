/** The probe's variants (issue 24): each must come back as a path a browser keeps on this site. */
export const REDIRECT_PROBES = [
  "/.//evil.example",
  "/..//evil.example",
  "//evil.example",
  "/\\evil.example",
  "/\\/evil.example",
  "%2F%2Fevil.example",
  "/%2F%2Fevil.example",
  "/%2f%2fevil.example",
  "/\t/evil.example",
  "\t//evil.example",
  "/\r\n/evil.example",
  "/\n/evil.example",
  "/ /evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  "/./..//evil.example",
  "/a/../..//evil.example",
  "https:evil.example",
  "http://evil.example",
  " //evil.example",
  "/\u0000/evil.example",
  "\\\\evil.example",
];

/** Where a browser goes when it follows `Location: value` from https://app.example/login. */
export const followedHost = (value: string) => new URL(value, "https://app.example/login").host;
