// @ts-check
// Loaded by the pages without a socket of their own: a player of an event running is taken to
// each of their tables from here too (tourneys.js).

import { watchTourneys } from "./tourneys.js";

watchTourneys();
