import { useRouteLoaderData } from "@remix-run/react";
import type { loader } from "~/root";

/**
 * The root route's data (the signed-in user, the CSRF token, the flash) for any component.
 * Here, not in root.tsx, so a component never imports the root route (which imports the
 * layout and its components): the type import is erased at build time.
 */
export const useRootData = () => useRouteLoaderData<typeof loader>("root");
export type RootData = ReturnType<typeof useRootData>;
