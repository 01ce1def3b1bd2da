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

/**
 * Targets outside ASCII, encoded and of mixed scripts: each must sign in (never a 500), come
 * back as printable ASCII (a `Location` header carries nothing else) and stay on this site.
 */
export const NON_ASCII_REDIRECT_PROBES = [
  "/。x",
  "/café",
  "/caf%C3%A9",
  "/%E3%80%82x",
  "/jobs?q=Привет",
  "/customers?q=東京#ÿ",
  "/ｊｏｂｓ",
  "/。/evil.example",
  "/。。/evil.example",
  "/％2F％2Fevil.example",
  "／／evil.example",
  "/\u00a0/evil.example",
  "/\u2028/evil.example",
  "/\u202e/elpmaxe.live",
  "/\ufeff/evil.example",
  "/e\u0301",
  "/?x=\ud83d\ude00",
  "/\ud800",
  "/jobs/ＡＢＣ%2F..%2F..%2Fevil",
];

/** True when every character of a header value is printable ASCII. */
export const printableAscii = (value: string) => /^[\u0021-\u007e]*$/.test(value);
