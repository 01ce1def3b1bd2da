import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { requireUser } from "~/http/auth.server";

// Every unknown page: the 404 page inside the layout (after sign-in, so a signed-out visitor
// learns nothing about which pages exist and comes back here after logging in).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  throw json({ message: "There is nothing at this address." }, { status: 404 });
}

export const action = loader;

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
