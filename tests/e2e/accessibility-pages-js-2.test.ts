import { pageChecks } from "../helpers/a11y-pages";
import { JS_MODES } from "../helpers/browser";

// Every page of the app with JavaScript on, part 2 of 2: no serious or critical axe-core
// finding (the cases are in tests/helpers/a11y-pages.ts).
pageChecks(JS_MODES[1], 2, 2);
