import type { HoneypotInputProps } from "remix-utils/honeypot/server";

/**
 * remix-utils' honeypot fields (the names and the encrypted time its server half gives the
 * loader, `honeypotInputProps()`), drawn here rather than by its `HoneypotInputs`: that one
 * writes `autocomplete="nope"`, which is not a valid autocomplete value (the HTML checker's
 * error). `off` keeps browsers from filling the trap just the same. Hidden from everyone;
 * people never fill it, a bot that does is refused (400).
 */
export function HoneypotFields({
  values = {},
  label = "Please leave this field blank",
}: {
  values?: Partial<HoneypotInputProps>;
  label?: string;
}) {
  const { nameFieldName = "name__confirm", validFromFieldName = "from__confirm", encryptedValidFrom } = values;
  return (
    <div id={`${nameFieldName}_wrap`} style={{ display: "none" }} aria-hidden="true">
      <label htmlFor={nameFieldName}>{label}</label>
      <input id={nameFieldName} name={nameFieldName} type="text" defaultValue="" autoComplete="off" tabIndex={-1} />
      {validFromFieldName && encryptedValidFrom ? (
        <>
          <label htmlFor={validFromFieldName}>{label}</label>
          <input
            id={validFromFieldName}
            name={validFromFieldName}
            type="text"
            value={encryptedValidFrom}
            readOnly
            autoComplete="off"
            tabIndex={-1}
          />
        </>
      ) : null}
    </div>
  );
}
